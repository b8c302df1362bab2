package dev.switchboard.client;

/** An open stream call; {@link #close()} cuts it (no listener callback follows). */
public interface StreamHandle {

    void close();
}
