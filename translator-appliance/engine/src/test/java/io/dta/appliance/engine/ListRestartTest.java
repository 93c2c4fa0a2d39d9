package io.dta.appliance.engine;

import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.codec.DtaOpcode;
import io.dta.collector.layout.ListLayout;
import io.dta.collector.query.ListReadResult;
import io.dta.collector.query.ListReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Append lists across a restart of the translator: an engine built over the list state file the previous engine
 * recorded into continues every list's numbering and ring position (docs/layouts.md, "Append lists").
 * <p>
 * What is compared against one engine fed every report: when the first engine stops on a batch boundary of every
 * list, the second engine's list WRITEs are the single engine's last ones: same QP, remote address and payload, byte
 * for byte (the frames themselves differ in PSN and ICRC: the second engine's QPs start again at their starting PSN).
 * When the first engine stops in the middle of a batch, it flushes the partial batch, which the single engine never
 * sent: then what is guaranteed is the numbering and the placement (consecutive sequence numbers, each in its record;
 * the reference ring's head continuing) and the entries, in order; not the batches' boundaries.
 */
class ListRestartTest
{
    private static final int BATCH = 4;
    private static final int RECORDS = 20;
    private static final int RECORD_LENGTH = ListLayout.recordLength(BATCH);
    private static final int REFERENCE_SLOTS = 16;

    @TempDir
    Path dir;

    private static Cfg cfg()
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = BATCH;
        cfg.list1Length = (long)RECORDS * RECORD_LENGTH;
        cfg.list0Length = 4L * REFERENCE_SLOTS;
        return cfg;
    }

    private Path stateFile()
    {
        return dir.resolve("translator.lists");
    }

    private void reset()
    {
        try
        {
            Files.deleteIfExists(stateFile());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** One engine run: the reports at 1 us apart (never an idle flush), then the stop's flush. */
    private List<Request> run(final List<byte[]> reports, final boolean withState)
    {
        final ApplianceConfig config = ConfigLoader.load(cfg().yaml());
        final ResumeStateFile state = withState ? ResumeStateFile.create(ResumeStateFile.read(stateFile(), false),
            ListRegion.allOf(config), 1) : null;
        try
        {
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine engine = new TranslatorEngine(config, out, false, new EngineCounters(), state);
            long now = 1_000_000;
            for (final byte[] report : reports)
            {
                engine.poll(now);
                engine.onFrame(new UnsafeBuffer(report), 0, report.length, now);
                now += 1_000;
            }
            engine.flush(now);
            return out.drainRequests().stream().filter(r -> L0_REMOTE == r.destQp() || L1_REMOTE == r.destQp())
                .toList();
        }
        finally
        {
            if (null != state)
            {
                state.close();
            }
        }
    }

    private static List<String> of(final List<Request> requests, final int destQp)
    {
        return requests.stream().filter(r -> destQp == r.destQp())
            .map(r -> Long.toHexString(r.va()) + " " + r.dmaLength() + " " + HexFormat.of().formatHex(r.payload()))
            .toList();
    }

    private static List<byte[]> reports(final SplittableRandom random, final int list0, final int list1)
    {
        final List<byte[]> reports = new ArrayList<>();
        int left0 = list0;
        int left1 = list1;
        while (left0 + left1 > 0)
        {
            final boolean zero = random.nextInt(left0 + left1) < left0;
            reports.add(report(DtaOpcode.APPEND, append(zero ? 0 : 1, 1 + random.nextInt(Integer.MAX_VALUE))));
            if (zero)
            {
                left0--;
            }
            else
            {
                left1--;
            }
        }
        return reports;
    }

    @Test
    void shouldContinueWhereTheSingleEngineWouldHaveWhenStoppedOnBatchBoundaries()
    {
        final long seed = 0x11575L;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 40; round++)
        {
            final List<byte[]> first = reports(random, BATCH * random.nextInt(12), BATCH * random.nextInt(60));
            final List<byte[]> second = reports(random, random.nextInt(50), random.nextInt(200));
            final List<byte[]> all = new ArrayList<>(first);
            all.addAll(second);

            final List<Request> single = run(all, false);
            reset();
            final List<Request> one = run(first, true);
            final List<Request> two = run(second, true);
            for (final int qp : new int[] {L0_REMOTE, L1_REMOTE})
            {
                final List<String> joined = new ArrayList<>(of(one, qp));
                joined.addAll(of(two, qp));
                assertEquals(of(single, qp), joined, "seed " + seed + " round " + round + " QP " + qp);
            }
            // Without the state file the second engine starts at batch 1 and slot 0 again: the comparison can fail.
            if (!of(one, L1_REMOTE).isEmpty() && !of(two, L1_REMOTE).isEmpty())
            {
                assertFalse(of(single, L1_REMOTE).subList(of(one, L1_REMOTE).size(), of(single, L1_REMOTE).size())
                    .equals(of(run(second, false), L1_REMOTE)));
            }
        }
    }

    @Test
    void shouldContinueNumberingAndPlacementAfterAStopInTheMiddleOfABatch()
    {
        final long seed = 0xBA7C4L;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 40; round++)
        {
            final List<byte[]> first = reports(random, random.nextInt(50), random.nextInt(250));
            final List<byte[]> second = reports(random, random.nextInt(50), random.nextInt(250));
            final List<byte[]> all = new ArrayList<>(first);
            all.addAll(second);
            final String where = "seed " + seed + " round " + round;

            final List<Request> single = run(all, false);
            reset();
            final List<Request> joined = new ArrayList<>(run(first, true));
            joined.addAll(run(second, true));

            // Sequenced: consecutive numbers from 1, each in its own record, the same entries in the same order.
            long expected = 1;
            final List<Integer> entries = new ArrayList<>();
            for (final Request r : joined.stream().filter(r -> L1_REMOTE == r.destQp()).toList())
            {
                final ByteBuffer payload = ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN);
                final int count = payload.getInt(4 * BATCH);
                assertEquals(expected, payload.getInt(4 * BATCH + 4), where);
                assertEquals(L1_BASE + (expected - 1) % RECORDS * RECORD_LENGTH, r.va(), where);
                for (int i = 0; i < count; i++)
                {
                    entries.add(payload.getInt(4 * i));
                }
                expected++;
            }
            assertEquals(entries(single, L1_REMOTE), entries, where);

            // Reference: the head continues (a batch that would cross the end starts at slot 0).
            int head = 0;
            final List<Integer> refEntries = new ArrayList<>();
            for (final Request r : joined.stream().filter(r -> L0_REMOTE == r.destQp()).toList())
            {
                final int n = r.dmaLength() / 4;
                final int slot = head + n > REFERENCE_SLOTS ? 0 : head;
                assertEquals(L0_BASE + 4L * slot, r.va(), where);
                head = slot + n;
                final ByteBuffer payload = ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < n; i++)
                {
                    refEntries.add(payload.getInt(4 * i));
                }
            }
            assertEquals(entries(single, L0_REMOTE), refEntries, where);
        }
    }

    private static List<Integer> entries(final List<Request> requests, final int destQp)
    {
        final List<Integer> entries = new ArrayList<>();
        for (final Request r : requests.stream().filter(r -> destQp == r.destQp()).toList())
        {
            final ByteBuffer payload = ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN);
            final int count = L1_REMOTE == destQp ? payload.getInt(4 * BATCH) : r.dmaLength() / 4;
            for (int i = 0; i < count; i++)
            {
                entries.add(payload.getInt(4 * i));
            }
        }
        return entries;
    }

    private static void apply(final MutableDirectBuffer region, final List<Request> requests)
    {
        for (final Request r : requests)
        {
            if (L1_REMOTE == r.destQp())
            {
                region.putBytes((int)(r.va() - L1_BASE), r.payload());
            }
        }
    }

    private static long[] values(final List<byte[]> reports)
    {
        // Ethernet 14, IPv4 20, UDP 8, 3-byte base header, list id 4: the entry (the frame is padded to 60 bytes).
        return reports.stream().mapToLong(f -> ByteBuffer.wrap(f).getInt(14 + 20 + 8 + 3 + 4) & 0xFFFF_FFFFL)
            .toArray();
    }

    @Test
    void shouldLetAReaderWithACursorFromBeforeTheRestartSeeExactlyTheNewEntries()
    {
        // 15 batches, a restart, 10 more: the ring of 20 records wraps during the second run.
        final SplittableRandom random = new SplittableRandom(0x4EADE4L);
        final List<byte[]> first = reports(random, 0, 15 * BATCH);
        final List<byte[]> second = reports(random, 0, 10 * BATCH);
        for (final boolean withState : new boolean[] {true, false})
        {
            final UnsafeBuffer region = new UnsafeBuffer(new byte[RECORDS * RECORD_LENGTH]);
            final ListReader reader = new ListReader(region,
                new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, RECORDS * RECORD_LENGTH));
            reset();
            apply(region, run(first, true));
            final ListReadResult before = reader.poll();
            assertArrayEquals(values(first), before.entries());
            assertEquals(15, before.cursor());

            apply(region, run(second, withState));
            final ListReadResult after = reader.poll();
            if (withState)
            {
                assertArrayEquals(values(second), after.entries(), "exactly the new entries");
                assertEquals(25, after.cursor());
                assertFalse(after.lapped());
                assertEquals(0, after.lostBatches());
            }
            else
            {
                // What a restart without the state file did: numbers 1 to 10 are behind the cursor, and they
                // overwrote records 0 to 9.
                assertEquals(0, after.entries().length);
                assertEquals(15, after.cursor());
            }
        }
    }

    @Test
    void shouldStoreThePositionBeforeTheWriteReachesTheSink()
    {
        final ApplianceConfig config = ConfigLoader.load(cfg().yaml());
        try (ResumeStateFile state = ResumeStateFile.create(ResumeStateFile.read(stateFile(), true),
            ListRegion.allOf(config), 1))
        {
            final int index = state.indexOf(1);
            final FrameCollector inner = new FrameCollector();
            final int[] checked = {0};
            final FrameSink sink = new FrameSink()
            {
                public MutableDirectBuffer buffer()
                {
                    return inner.buffer();
                }

                public int claim(final int maxLength)
                {
                    return inner.claim(maxLength);
                }

                public SendOutcome commit(
                    final int offset, final int length, final long timeNanos, final OutFrameKind kind,
                    final int reports)
                {
                    final SendOutcome outcome = inner.commit(offset, length, timeNanos, kind, reports);
                    check();
                    return outcome;
                }

                public boolean claimHeld(final HeldFrame frame, final int maxLength)
                {
                    return inner.claimHeld(frame, maxLength);
                }

                public SendOutcome commitHeld(
                    final HeldFrame frame, final int length, final long timeNanos, final int reports)
                {
                    final SendOutcome outcome = inner.commitHeld(frame, length, timeNanos, reports);
                    check();
                    return outcome;
                }

                public void abandonHeld(final HeldFrame frame)
                {
                    inner.abandonHeld(frame);
                }

                private void check()
                {
                    final Request r = parseRequest(inner.frames().getLast().bytes());
                    if (L1_REMOTE == r.destQp())
                    {
                        final long sequence = ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN)
                            .getInt(4 * BATCH + 4);
                        assertTrue(state.position(index) > sequence,
                            "position " + state.position(index) + " at the WRITE of batch " + sequence);
                        checked[0]++;
                    }
                }
            };
            final TranslatorEngine engine = new TranslatorEngine(config, sink, false, new EngineCounters(), state);
            long now = 1_000_000;
            for (final byte[] report : reports(new SplittableRandom(7), 0, 30 * BATCH + 2))
            {
                engine.poll(now);
                engine.onFrame(new UnsafeBuffer(report), 0, report.length, now);
                now += 1_000;
            }
            engine.flush(now);
            assertEquals(31, checked[0]);
            assertEquals(32, state.position(index));
        }
    }

    @Test
    void shouldNotNumberABatchDroppedInAGracePeriodAndResumeAfterIt()
    {
        final Cfg cfg = cfg();
        cfg.timeoutMicros = 10_000_000; // no ACK timeout, no probing: only the grace period refuses
        final ApplianceConfig config = ConfigLoader.load(cfg.yaml());
        try (ResumeStateFile state = ResumeStateFile.create(ResumeStateFile.read(stateFile(), true),
            ListRegion.allOf(config), 1))
        {
            final int index = state.indexOf(1);
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine engine = new TranslatorEngine(config, out, true, new EngineCounters(), state);
            final long[] now = {1_000_000};
            final Runnable batch = () ->
            {
                for (int i = 0; i < BATCH; i++)
                {
                    engine.onFrame(new UnsafeBuffer(report(DtaOpcode.APPEND, append(1, 100 + i))), 0, 60, now[0]);
                }
            };
            batch.run();
            batch.run();
            assertEquals(3, state.position(index));
            engine.pollNow(now[0] += TranslatorEngine.HOLD_NANOS);
            final byte[] nak = nak(L1_QPN, 0x60, 0x101);
            engine.onFrame(new UnsafeBuffer(nak), 0, nak.length, now[0]);
            assertEquals(QueuePairSender.State.GRACE, engine.sender(L1_QPN).state());
            batch.run();
            assertEquals(BATCH, engine.counters().get(EngineCounter.DROP_GRACE_PERIOD));
            assertEquals(3, state.position(index), "a batch dropped in the grace period takes no number");
            assertEquals(3, engine.list(1).position());

            // An essential batch in the grace period is kept for later: it is numbered.
            for (int i = 0; i < BATCH; i++)
            {
                final byte[] essential = report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.APPEND, 0, 0x20,
                    append(1, 200 + i));
                engine.onFrame(new UnsafeBuffer(essential), 0, essential.length, now[0]);
            }
            assertEquals(4, state.position(index));
            engine.pollNow(now[0] += 2_000_000);
            batch.run();
            assertEquals(5, state.position(index));
            assertEquals(5, engine.list(1).position());
        }
        try (ResumeStateFile state = ResumeStateFile.create(ResumeStateFile.read(stateFile(), false),
            ListRegion.allOf(config), 1))
        {
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine engine = new TranslatorEngine(config, out, false, new EngineCounters(), state);
            assertEquals(5, engine.list(1).position());
            for (int i = 0; i < BATCH; i++)
            {
                engine.onFrame(new UnsafeBuffer(report(DtaOpcode.APPEND, append(1, i))), 0, 60, 1_000_000);
            }
            engine.flush(1_000_000);
            final Request r = out.drainRequests().stream().filter(q -> L1_REMOTE == q.destQp()).findFirst()
                .orElseThrow();
            assertEquals(L1_BASE + 4L * RECORD_LENGTH, r.va());
            assertEquals(5, ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(4 * BATCH + 4));
        }
    }

    @Test
    void shouldRefuseAStateFileMadeForOtherLists()
    {
        final ApplianceConfig config = ConfigLoader.load(cfg().yaml());
        final Cfg other = cfg();
        other.list1Length = 4096;
        final ApplianceConfig changed = ConfigLoader.load(other.yaml());
        try (ResumeStateFile state = ResumeStateFile.create(ResumeStateFile.read(stateFile(), true),
            ListRegion.allOf(config), 1))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> new TranslatorEngine(changed, new FrameCollector(), false, new EngineCounters(), state));
            assertTrue(ex.getMessage().contains("was not created for list 1"), ex.getMessage());
        }
    }
}
