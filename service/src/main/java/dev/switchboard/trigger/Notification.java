package dev.switchboard.trigger;

/**
 * One delivery, read: what groups it into a thread, what makes it the same turn when it is delivered again, and the
 * turn the agent receives.
 *
 * @param groupKey the thread's key (Alertmanager's groupKey, a generic payload's key); deliveries with one key share a
 *     thread
 * @param identity everything that makes two deliveries the same notification, as one canonical string
 * @param title the thread's title where the platform shows one (a person reads it, not the agent)
 * @param text the turn's text: Switchboard's own sentences, the payload only inside untrusted-data blocks
 */
record Notification(String groupKey, String identity, String title, String text) {}
