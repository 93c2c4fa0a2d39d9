package io.dta.appliance.live;

import io.dta.appliance.engine.EngineCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reconnection of a {@code net_memif} client port whose server went away, on a port whose link and restarts the
 * test decides: when attempts come, which are quiet, what is said and counted. The real device: {@code
 * LiveMemifReconnectEalTest}.
 */
class ReconnectingLinkTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final String LABEL = "port 1 net_memif0 (collector link)";

    private final FakePort port = new FakePort();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private ReconnectingLink link;

    @BeforeEach
    void setUp()
    {
        originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        link = new ReconnectingLink(port, LABEL, "dta run", EngineCounters.heapManager(8), PortCounters.TYPE_ID);
    }

    @AfterEach
    void restoreErr()
    {
        System.setErr(originalErr);
    }

    @Test
    void shouldRetryEveryIntervalWhileTheServerIsGoneAndSayOnceEachWay()
    {
        port.up = true;
        assertEquals(0, link.watch(0));
        port.up = false;
        port.startResult = -1;
        long now = 100 * MS;
        assertEquals(0, link.watch(now), "the first attempt waits: DPDK's interrupt thread may still disconnect");
        assertTrue(link.down());
        assertEquals(1, link.linksLost());
        assertEquals(0, link.watch(now + ReconnectingLink.RETRY_NANOS - 1));
        for (int i = 0; i < 5; i++)
        {
            now += ReconnectingLink.RETRY_NANOS;
            assertEquals(1, link.watch(now));
        }
        assertEquals(List.of(false, true, true, true, true), port.quiet,
            "DPDK's line of the first failed attempt says why; the later ones would repeat it");
        assertEquals(5, link.attempts());

        // The server is back: the next start connects, and the link comes up with the handshake.
        port.startResult = 0;
        now += ReconnectingLink.RETRY_NANOS;
        assertEquals(1, link.watch(now));
        port.up = true;
        assertEquals(0, link.watch(now + 10 * MS));
        assertFalse(link.down());
        assertEquals(1, link.reconnections());
        assertEquals(6, link.attempts());

        final List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of(
            "dta run: " + LABEL + ": link down: the memif server went away; reconnecting every 100 ms until it " +
                "is back (frames for it are dropped meanwhile, counted as tx not taken)",
            "dta run: " + LABEL + ": link up again: reconnected to the memif server after 6 attempt(s), 610 ms down"),
            lines);
    }

    @Test
    void shouldGiveAStartThatConnectedTimeForTheHandshakeBeforeTheNextAttempt()
    {
        port.up = true;
        link.watch(0);
        port.up = false;
        link.watch(MS);
        port.startResult = 0;
        final long started = MS + ReconnectingLink.RETRY_NANOS;
        assertEquals(1, link.watch(started));
        assertEquals(0, link.watch(started + ReconnectingLink.RETRY_NANOS));
        assertEquals(0, link.watch(started + ReconnectingLink.HANDSHAKE_NANOS - 1));
        assertEquals(1, link.watch(started + ReconnectingLink.HANDSHAKE_NANOS), "no link by then: start again");
        assertEquals(2, link.attempts());
    }

    @Test
    void shouldLeaveALinkThatWasNeverUpToTheStartUpWait()
    {
        for (long now = 0; now < 2 * ReconnectingLink.HANDSHAKE_NANOS; now += ReconnectingLink.RETRY_NANOS)
        {
            assertEquals(0, link.watch(now));
        }
        assertFalse(link.down());
        assertEquals(0, link.linksLost());
        assertTrue(port.quiet.isEmpty());
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldCountEveryOutage()
    {
        long now = 0;
        for (int outage = 1; outage <= 3; outage++)
        {
            port.up = true;
            link.watch(now += MS);
            port.up = false;
            link.watch(now += MS);
            link.watch(now += ReconnectingLink.RETRY_NANOS);
            port.up = true;
            link.watch(now += MS);
            assertEquals(outage, link.linksLost());
            assertEquals(outage, link.reconnections());
            assertEquals(outage, link.attempts());
        }
        assertEquals(6, err.toString(StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void shouldTellMemifClientsFromTheirVirtualDevices()
    {
        final List<String> eal = List.of("-l", "0", "--vdev=net_memif0,role=server,socket=/tmp/a.sock", "--vdev",
            "net_memif1,socket=/tmp/b.sock,role=client", "--vdev=net_memif2,socket=/tmp/c.sock",
            "--vdev=net_memif3,role=master", "--vdev=net_memif10,role=slave");
        assertFalse(ReconnectingLink.isMemifClient("net_memif", "net_memif0", eal));
        assertTrue(ReconnectingLink.isMemifClient("net_memif", "net_memif1", eal));
        assertTrue(ReconnectingLink.isMemifClient("net_memif", "net_memif2", eal), "memif's default role");
        assertFalse(ReconnectingLink.isMemifClient("net_memif", "net_memif3", eal));
        assertTrue(ReconnectingLink.isMemifClient("net_memif", "net_memif10", eal));
        assertFalse(ReconnectingLink.isMemifClient("net_pcap", "net_pcap0", eal));
    }

    private static final class FakePort implements ReconnectingLink.Port
    {
        boolean up;
        int startResult;
        final List<Boolean> quiet = new ArrayList<>();

        public boolean linkUp()
        {
            return up;
        }

        public int restart(final boolean quietly)
        {
            quiet.add(quietly);
            return startResult;
        }
    }
}
