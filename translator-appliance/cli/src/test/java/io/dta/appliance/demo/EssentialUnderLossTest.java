package io.dta.appliance.demo;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TestFrames;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaOpcode;
import io.dta.codec.Ipv4Address;
import io.dta.collector.layout.ListLayout;
import io.dta.collector.query.CounterQuery;
import io.dta.collector.query.KeyWriteQuery;
import io.dta.collector.query.KeyWriteResult;
import io.dta.collector.query.ListReader;
import io.dta.collector.store.CollectorStore;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigLoader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every report essential and retransmittable, 2 % of the frames lost each way on the collector link: every report
 * lands exactly once, with at most one RoCE re-send per report on average. Checked against a model built from the
 * reports alone: each Key-Write's value under its key, each counter the sum of its increments (and the region's
 * total their sum: nothing lost, nothing executed twice), each Append entry exactly once in its list.
 */
class EssentialUnderLossTest
{
    private static final int COLLECTOR_IP = Ipv4Address.parse("10.0.0.51");
    private static final int KW_SLOTS = 1 << 16;
    private static final int COUNTER_KEYS = 64;
    private static final int REPORTERS = 16;

    private static final String YAML = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101, dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff}
        reports: {udpPort: 40040}
        append: {batchSize: 4}
        resync: {graceMicros: 1000}
        essential: {backlog: %d}
        collectors:
          - name: a
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: %d,
                       slotSize: 8, startPsn: 0x100}
            keyIncrement: {localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000,
                           length: 65536, startPsn: 0x100}
            lists:
              - {id: 1, localQpn: 0x53d, qpn: 0x45a, rkey: 0x1238, address: 0x7f0000400000, length: 4194304,
                 startPsn: 0x100}
        """;

    @TempDir
    Path dir;

    @Test
    void shouldLandEveryEssentialReportAtTwoPercentLossWithAtMostOneResendPerReport() throws Exception
    {
        final Outcome o = run(1024, 60_000, 100_000, 0.02, 1);
        o.assertEveryReportLanded();
        assertTrue(o.resendsPerReport() <= 1.0, "RoCE re-sends per report: " + o.resendsPerReport());
    }

    @Test
    void shouldLandEveryEssentialReportOfAOneMillionPerSecondBurstAtTwoPercentLoss() throws Exception
    {
        final Outcome o = run(1024, 60_000, 1_000_000, 0.02, 2);
        o.assertEveryReportLanded();
        assertTrue(o.resendsPerReport() <= 1.0, "RoCE re-sends per report: " + o.resendsPerReport());
    }

    @Test
    void shouldNackRetransmittableReportsBackToTheirReportersWhenTheEssentialRingIsFull() throws Exception
    {
        // A ring of 256 entries at 1 M/s under 2 % loss fills: the reports it cannot take go back to their reporters,
        // which send them again; none is dropped.
        final Outcome o = run(256, 20_000, 1_000_000, 0.02, 3);
        o.assertEveryReportLanded();
        assertTrue(o.demo.engine().counters().get(EngineCounter.DROP_BACKLOG_FULL_NACKED) > 0, "the ring filled");
        assertTrue(o.demo.reportsResent() > 0, "the reporters sent reports again");
    }

    private Outcome run(final int backlog, final int reports, final long perSecond, final double loss, final long seed)
        throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(YAML.formatted(backlog, KW_SLOTS * 8));
        final CollectorConfig collector = config.collectors().get(0);
        final CollectorStore store = CollectorStore.create(dir.resolve("store-" + seed), config, collector);
        final ClosedLoopDemo demo = new ClosedLoopDemo(config, config, List.of(store), loss, seed);
        final Traffic traffic = new Traffic(reports, perSecond);
        demo.run(traffic);
        return new Outcome(demo, store, traffic, collector);
    }

    /** Reports of 16 reporters, round robin: Key-Write (unique key and value), Key-Increment, Append, in turn. */
    private static final class Traffic implements FrameSource
    {
        final int count;
        final long intervalNanos;
        final int[] seqnum = new int[REPORTERS];
        final Map<Integer, Integer> keyWrites = new HashMap<>();
        final long[] increments = new long[COUNTER_KEYS];
        final Map<Long, Integer> appended = new HashMap<>();
        int produced;
        byte[] frame;

        Traffic(final int count, final long perSecond)
        {
            this.count = count;
            this.intervalNanos = 1_000_000_000L / perSecond;
        }

        @Override
        public boolean next()
        {
            if (produced == count)
            {
                return false;
            }
            final int i = produced++;
            final int reporter = i % REPORTERS;
            final byte[] sub;
            final int opcode;
            switch (i % 3)
            {
                case 0 ->
                {
                    opcode = DtaOpcode.KEY_WRITE;
                    keyWrites.put(i, 0x40000000 + i);
                    sub = TestFrames.keyWrite(1, i, ByteBuffer.allocate(4).putInt(0x40000000 + i).array());
                }
                case 1 ->
                {
                    opcode = DtaOpcode.KEY_INCREMENT;
                    final int key = i % COUNTER_KEYS;
                    increments[key] += i % 7 + 1;
                    sub = TestFrames.keyIncrement(1, key, i % 7 + 1);
                }
                default ->
                {
                    opcode = DtaOpcode.APPEND;
                    appended.merge((long)i, 1, Integer::sum);
                    sub = TestFrames.append(1, i);
                }
            }
            final int flags = DtaBaseHeaderFlyweight.FLAG_ESSENTIAL | DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE;
            frame = TestFrames.report(Ipv4Address.parse("10.2.0.1") + reporter, COLLECTOR_IP, 3, opcode,
                seqnum[reporter], flags, sub);
            seqnum[reporter] = (seqnum[reporter] + 1) & 0xFF;
            return true;
        }

        @Override
        public DirectBuffer buffer()
        {
            return new UnsafeBuffer(frame);
        }

        @Override
        public int offset()
        {
            return 0;
        }

        @Override
        public int length()
        {
            return frame.length;
        }

        @Override
        public long timeNanos()
        {
            return 1_000_000_000L + (produced - 1) * intervalNanos;
        }
    }

    private record Outcome(ClosedLoopDemo demo, CollectorStore store, Traffic traffic, CollectorConfig collector)
    {
        double resendsPerReport()
        {
            return (double)demo.engine().counters().get(EngineCounter.ESSENTIAL_RESENT) / traffic.count;
        }

        void assertEveryReportLanded()
        {
            System.out.printf("%d reports, loss %.1f%%: RoCE re-sends per report %.3f, reporter re-sends %d, " +
                "NACKed for a full ring %d, drops %d, virtual time %.1f ms%n", traffic.count,
                100.0 * demo.toCollectorStats()[1] / Math.max(1, demo.toCollectorStats()[0]), resendsPerReport(),
                demo.reportsResent(), demo.engine().counters().get(EngineCounter.DROP_BACKLOG_FULL_NACKED),
                demo.engine().counters().get(EngineCounter.DROP_BACKLOG_FULL), demo.simulatedNanos() / 1e6);
            assertTrue(demo.quiescent(), "quiescent");
            assertEquals(0, demo.reporterUnrecoverable(), "reporters that lost track");
            assertEquals(0, demo.essentialOutstanding(), "essential operations outstanding");
            assertEquals(0, demo.engine().counters().get(EngineCounter.DROP_BACKLOG_FULL), "dropped for a full ring");

            final KeyWriteQuery kw = new KeyWriteQuery(store.memory(collector.keyWrite().region()), 8);
            final Map<Integer, Integer> bySlot = new HashMap<>();
            for (final int key : traffic.keyWrites.keySet())
            {
                bySlot.merge((int)(TestFrames.slotHash(key, 0) & (KW_SLOTS - 1)), 1, Integer::sum);
            }
            int checked = 0;
            for (final Map.Entry<Integer, Integer> e : traffic.keyWrites.entrySet())
            {
                if (bySlot.get((int)(TestFrames.slotHash(e.getKey(), 0) & (KW_SLOTS - 1))) > 1)
                {
                    continue;
                }
                final KeyWriteResult r = kw.lookup(e.getKey(), 1, false);
                assertTrue(r.found(), "Key-Write key " + e.getKey());
                assertEquals(e.getValue(), ByteBuffer.wrap(r.data()).getInt(), "Key-Write key " + e.getKey());
                checked++;
            }
            assertTrue(checked > traffic.keyWrites.size() * 9 / 10, "keys alone in their slot: " + checked);

            final UnsafeBuffer counters = store.memory(collector.keyIncrement().region());
            final CounterQuery ki = new CounterQuery(counters);
            long expectedTotal = 0;
            for (int key = 0; key < COUNTER_KEYS; key++)
            {
                expectedTotal += traffic.increments[key];
                assertTrue(ki.value(key, 1) >= traffic.increments[key], "counter " + key);
            }
            long total = 0;
            for (int at = 0; at < counters.capacity(); at += 8)
            {
                total += counters.getLong(at, ByteOrder.LITTLE_ENDIAN);
            }
            assertEquals(expectedTotal, total, "every increment executed exactly once");

            final var list = collector.lists().get(0);
            final ListReader reader = new ListReader(store.memory(list.region()),
                new ListLayout(ListLayout.Kind.SEQUENCED, 4, list.region().length()));
            final Map<Long, Integer> found = new HashMap<>();
            for (final long entry : reader.read(0).entries())
            {
                found.merge(entry, 1, Integer::sum);
            }
            assertEquals(traffic.appended, found, "every Append entry exactly once");
        }
    }
}
