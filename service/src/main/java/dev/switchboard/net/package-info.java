/**
 * Small facts about IP addresses, without DNS: literal-address checks ({@link Addresses}) and IPv4/IPv6 blocks
 * ({@link CidrBlock}), for the egress policy, trusted proxies and the exposure rules. Only {@code java.*}.
 */
package dev.switchboard.net;
