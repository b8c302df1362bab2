package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.net.Addresses;
import dev.switchboard.registry.EgressPolicy;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Threat: whoever may register an agent points it at a cloud's metadata or host-agent service that is not in
 * 169.254.0.0/16 (Azure's wireserver, Oracle's and Alibaba's metadata addresses, the IPv6 metadata endpoints of AWS
 * and GCP), or at a link-local one written as an IPv6 address that reaches it anyway: IPv4-mapped, IPv4-compatible,
 * IPv4-translated, through the well-known NAT64 prefix, through a local-use NAT64 prefix (whose embedding depends
 * on the site's prefix length, so the whole block is refused) or 6to4. Each is refused at registration (the URL) and
 * at connect (the resolved address), even when {@code registry.allowedHosts} admits every address; a public address
 * behind NAT64 stays allowed.
 */
class EgressRefusesEveryCloudMetadataAddressTest {

    private static final List<String> METADATA = List.of(
            "169.254.169.254",          // AWS, GCP, Azure IMDS, Oracle, DigitalOcean, OpenStack
            "168.63.129.16",            // Azure wireserver (VM agent, health probes, DNS)
            "192.0.0.192",              // Oracle Cloud's classic metadata address
            "100.100.100.200",          // Alibaba Cloud
            "fd00:ec2::254",            // AWS IMDS over IPv6
            "fd20:ce::254",             // GCP metadata server over IPv6
            "::ffff:169.254.169.254",   // IPv4-mapped
            "::ffff:168.63.129.16",
            "::169.254.169.254",        // IPv4-compatible
            "::ffff:0:169.254.169.254", // IPv4-translated (SIIT)
            "64:ff9b::169.254.169.254", // the well-known NAT64 prefix
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::a83f:8110",       // 168.63.129.16 through NAT64
            "64:ff9b::c000:c0",         // 192.0.0.192 through NAT64
            "64:ff9b::6464:64c8",       // 100.100.100.200 through NAT64
            "64:ff9b:1::a9fe:a9fe",     // local-use NAT64 (RFC 8215), /96 embedding
            "64:ff9b:1:0:a9:fea9:fe00:0", // ... /64 embedding (RFC 6052: bits 64..71 are zero)
            "64:ff9b:1:ffff::1",        // ... anything in the block
            "2002:a9fe:a9fe::1");       // 6to4 of 169.254.169.254

    /** allowedHosts that admit every address: the deny list comes first. */
    private static final EgressPolicy ADMITS_ALL = EgressPolicy.of(List.of("0.0.0.0/0", "::/0"));
    private static final EgressPolicy DEFAULT = EgressPolicy.of(List.of());

    @Test
    void everyMetadataAddressIsRefusedAtRegistrationAndAtConnect() throws Exception {
        for (String address : METADATA) {
            InetAddress a = Addresses.literal(address).orElseThrow(() -> new AssertionError("cannot read " + address));
            String url = "http://" + (address.contains(":") ? "[" + address + "]" : address) + "/latest/meta-data/";
            for (EgressPolicy policy : List.of(DEFAULT, ADMITS_ALL)) {
                assertThat(policy.problemWithUrl(url)).as("registering " + url).isPresent();
                assertThat(policy.allows(a, null)).as("connecting to " + address).isFalse();
                // a name that resolves to it (DNS rebinding) is refused at connect too
                assertThat(policy.allows(a, "agent.example.com")).as("agent.example.com at " + address).isFalse();
            }
        }
    }

    @Test
    void publicAddressesStayAllowedAlsoThroughNat64() throws Exception {
        for (String address : List.of("93.184.215.14", "64:ff9b::5db8:d70e", "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
                "2002:5db8:d70e::1", "192.0.0.193", "168.63.129.17")) {
            InetAddress a = Addresses.literal(address).orElseThrow();
            assertThat(DEFAULT.allows(a, null)).as(address).isTrue();
        }
    }
}
