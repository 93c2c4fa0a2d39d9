package io.dta.appliance.engine;

import io.dta.collector.responder.SoftResponder;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * translation.md §4–§6 against an independent RC responder (collector-lib's {@link SoftResponder}, which checks
 * PSNs, the opcode order of First/Middle/Last and the lengths against the path MTU, NAKs once per episode and
 * answers duplicates): essential WRITEs up to four path MTUs long, both directions of the link losing frames, so
 * the QP splits, resynchronises into the middle of messages, probes and re-sends. Every WRITE must land exactly as
 * if applied in order, and the responder must never see an invalid request (a fatal NAK would stop the QP).
 */
class MultiPacketWriteClosedLoopTest
{
    private static final String YAML = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101, dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff}
        acks: {requestInterval: 8, timeoutMicros: 50}
        resync: {graceMicros: 20}
        collectors:
          - name: a
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            pathMtu: 256
            keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 16384,
                       slotSize: 8, startPsn: 0xFFFF00}
        """;

    @Test
    void shouldLandEveryMultiPacketWriteThroughLossInBothDirections()
    {
        for (final long seed : new long[] {1, 2, 3, System.nanoTime()})
        {
            run(seed, 0.02);
            run(seed, 0.2);
        }
    }

    private static void run(final long seed, final double loss)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ApplianceConfig config = ConfigLoader.load(YAML);
        final RegionConfig region = config.collectors().get(0).keyWrite().region();
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[(int)region.length()]);
        final SoftResponder responder = new SoftResponder(config, (c, r) -> r == region ? memory : null);
        final QpPath path = new QpPath("a/keyWrite", 0x02000a000033L, config.collectors().get(0).ip(),
            region.udpSourcePort(), region.localQpn(), region.qpn(), (int)region.rkey(), region.address(),
            region.length(), region.startPsn(), 256);
        final FrameCollector out = new FrameCollector();
        final EngineCounters counters = new EngineCounters();
        final QueuePairSender sender = new QueuePairSender(
            new RoceFrameBuilder(config.translator().mac(), config.translator().ip(), 26 << 2, 64, 0xFFFF, path),
            out, counters, new SenderSettings(8, 50_000, 20_000, 0, 20_000, 16, 8, 4096, 0), 1024);

        final byte[] expected = new byte[(int)region.length()];
        final List<byte[]> responses = new ArrayList<>();
        long now = 1_000_000;
        int written = 0;
        final int writes = 400;
        final String ctx = "seed " + seed;
        for (int step = 0; step < 200_000 && (written < writes || !sender.isQuiescent()); step++)
        {
            if (written < writes && random.nextInt(4) == 0 && sender.essentialBacklog() < 64)
            {
                final int length = 1 + random.nextInt(1000);
                final int offset = random.nextInt((int)region.length() - length) & ~7;
                final byte[] data = new byte[length];
                random.nextBytes(data);
                assertTrue(sender.admit(true, 1, now), ctx);
                assertTrue(sender.write(region.address() + offset, new UnsafeBuffer(data), 0, length, true, 1, now),
                    ctx);
                System.arraycopy(data, 0, expected, offset, length);
                written++;
            }
            now += 2_000;
            sender.poll(now);
            for (final FrameCollector.Frame f : out.drain())
            {
                if (random.nextDouble() >= loss)
                {
                    responder.onFrame(new UnsafeBuffer(f.bytes()), 0, f.bytes().length, now,
                        (b, o, l) ->
                        {
                            final byte[] r = new byte[l];
                            b.getBytes(o, r);
                            responses.add(r);
                        });
                }
            }
            for (final byte[] r : responses)
            {
                if (random.nextDouble() < loss)
                {
                    continue;
                }
                final ByteBuffer b = ByteBuffer.wrap(r);
                final int psn = b.getInt(50) & 0xFFFFFF;
                final int syndrome = r[54] & 0xFF;
                assertEquals(0x11, r[42], ctx);
                if (syndrome < 0x20)
                {
                    sender.onAck(psn, now);
                }
                else
                {
                    assertEquals(0x60, syndrome, ctx + ": only sequence errors, never an invalid request");
                    sender.onNak(syndrome, psn, now);
                }
            }
            responses.clear();
        }
        assertEquals(writes, written, ctx);
        assertTrue(sender.isQuiescent(), ctx + ": not quiescent, state " + sender.state());
        assertEquals(QueuePairSender.State.ACTIVE, sender.state(), ctx);
        assertEquals(writes, counters.get(EngineCounter.REPORTS_DELIVERED), ctx);
        assertTrue(counters.get(EngineCounter.NAK_SEQUENCE_ERRORS_IN) + counters.get(EngineCounter.PROBE_RESYNCS) > 0,
            ctx + ": the loss must have caused resynchronisations");
        assertArrayEquals(expected, Arrays.copyOf(memory.byteArray(), expected.length), ctx);
    }
}
