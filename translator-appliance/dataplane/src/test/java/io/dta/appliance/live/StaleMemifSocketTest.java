package io.dta.appliance.live;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A memif server killed with SIGKILL leaves its socket file, and the next server's EAL fails on it ("Address already
 * in use") unless it is removed first.
 */
class StaleMemifSocketTest
{
    @TempDir
    Path dir;

    @Test
    void shouldLookOnlyAtTheFileSocketsOfMemifServers()
    {
        assertEquals(Path.of("/tmp/x.sock"),
            StaleMemifSocket.serverFileSocket("net_memif0,role=server,socket=/tmp/x.sock,socket-abstract=no"));
        assertEquals(Path.of(MemifDevice.DEFAULT_SOCKET),
            StaleMemifSocket.serverFileSocket("net_memif1,socket-abstract=no,role=master"));
        assertNull(StaleMemifSocket.serverFileSocket("net_memif0,role=client,socket=/tmp/x.sock,socket-abstract=no"),
            "a client's socket belongs to its server");
        assertNull(StaleMemifSocket.serverFileSocket("net_memif0,socket=/tmp/x.sock,socket-abstract=no"),
            "client is memif's default role");
        assertNull(StaleMemifSocket.serverFileSocket("net_memif0,role=server,socket=/tmp/x.sock"),
            "an abstract socket (memif's default) goes with its process");
        assertNull(StaleMemifSocket.serverFileSocket("net_pcap0,rx_pcap=a.pcap"));
    }

    @Test
    void shouldRemoveASocketNobodyListensOnAndNothingElse() throws Exception
    {
        final Path stale = dir.resolve("stale.sock");
        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(stale)).close();
        assertTrue(Files.exists(stale), "closing a listener leaves its file, as a killed process does");
        final Path live = dir.resolve("live.sock");
        final Path seqpacket = dir.resolve("seqpacket.sock");
        final Path plain = Files.writeString(dir.resolve("plain.sock"), "not a socket");
        // A memif server listens with SOCK_SEQPACKET, which Java cannot open: a Python one stands in.
        final Process python = new ProcessBuilder("/usr/bin/python3", "-c",
            "import socket,sys,time\n" +
            "s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind(sys.argv[1]); s.listen(1)\n" +
            "print('ready', flush=True); time.sleep(60)", seqpacket.toString()).start();
        try (ServerSocketChannel ignored = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
            .bind(UnixDomainSocketAddress.of(live)))
        {
            assertEquals("ready", new String(python.getInputStream().readNBytes(5), StandardCharsets.US_ASCII));
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final List<String> ealArgs = List.of("--no-huge",
                "--vdev=net_memif0,role=server,socket=" + stale + ",socket-abstract=no",
                "--vdev", "net_memif1,role=server,socket=" + live + ",socket-abstract=no",
                "--vdev=net_memif2,role=server,socket=" + seqpacket + ",socket-abstract=no",
                "--vdev=net_memif3,role=server,socket=" + plain + ",socket-abstract=no",
                "--vdev=net_memif4,role=server,socket=" + dir.resolve("absent.sock") + ",socket-abstract=no");
            assertEquals(1, StaleMemifSocket.removeStale(ealArgs, new PrintStream(err, true), "dta run"));
            assertFalse(Files.exists(stale));
            assertTrue(Files.exists(live) && Files.exists(seqpacket) && Files.exists(plain));
            assertEquals("dta run: removed " + stale + ", a memif socket nobody listens on (left by a server that " +
                "was killed)\n", err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            python.destroy();
            python.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
