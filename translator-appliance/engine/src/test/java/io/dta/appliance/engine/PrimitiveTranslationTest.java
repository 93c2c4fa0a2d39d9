package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrimitiveTranslationTest
{
    // ------------------------------------------------------------------ Key-Increment

    @Test
    void shouldBuildFetchAddFrames()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final long counter = 0x0102030405060708L;
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(3, 0xCAFEBABE, counter)));
        final List<Request> frames = h.settle();
        assertEquals(3, frames.size());
        for (int n = 0; n < 3; n++)
        {
            final Request r = frames.get(n);
            assertTrue(r.isFetchAdd());
            assertEquals(86, r.bytes().length);
            assertEquals(0x100 + n, r.psn());
            assertEquals(KI_REMOTE, r.destQp());
            assertEquals(0x1235, r.rkey());
            assertEquals(KI_BASE + (slotHash(0xCAFEBABE, n) & 255) * 8, r.va());
            assertEquals(counter, r.addend());
            assertEquals(0, r.compare());
        }
    }

    @Test
    void shouldLimitOutstandingAtomicsAndReleaseOnAtomicAck()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // maxAtomics 4, queue 8
        for (int i = 0; i < 12; i++)
        {
            h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(1, i, i + 1)));
        }
        List<Request> frames = h.settle();
        assertEquals(4, frames.size(), "only maxOutstandingAtomics go out");
        for (int i = 0; i < 4; i++)
        {
            assertEquals(i + 1, frames.get(i).addend());
        }
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(1, 99, 99)));
        assertEquals(1, h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL), "4 in flight + 8 waiting: full");
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL), "N = 1: one operation");

        h.feed(atomicAck(KI_QPN, 0x100));
        frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(5, frames.get(0).addend());
        assertEquals(0x104, frames.get(0).psn());

        h.feed(atomicAck(KI_QPN, 0x103));
        frames = h.settle();
        assertEquals(3, frames.size());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(6 + i, frames.get(i).addend());
            assertEquals(0x105 + i, frames.get(i).psn());
        }
        h.feed(atomicAck(KI_QPN, 0x107));
        frames = h.settle();
        assertEquals(4, frames.size());
        assertEquals(12, frames.get(3).addend());
        assertEquals(1, h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL), "N = 1: one operation");
    }

    @Test
    void shouldLowerTheAtomicLimitWhileMoreAreOutstandingAndRaiseItPastTheRingItWasBuiltFor()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // maxAtomics 4, queue 8
        final QueuePairSender ki = h.sender(KI_QPN);
        for (int i = 0; i < 12; i++)
        {
            h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(1, i, i + 1)));
        }
        assertEquals(4, h.settle().size());
        assertEquals(4, ki.outstandingAtomics());

        // A new grant of 2 with 4 outstanding: they drain, nothing new goes out until fewer than 2 are unanswered.
        ki.maxOutstandingAtomics(2, h.now);
        assertEquals(2, ki.maxOutstandingAtomics());
        assertEquals(0, h.settle().size());
        h.feed(atomicAck(KI_QPN, 0x100));
        assertEquals(0, h.settle().size(), "3 outstanding, limit 2");
        h.feed(atomicAck(KI_QPN, 0x101));
        assertEquals(0, h.settle().size(), "2 outstanding, limit 2");
        h.feed(atomicAck(KI_QPN, 0x102));
        List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(5, frames.get(0).addend());
        assertEquals(0x104, frames.get(0).psn());
        assertEquals(2, ki.outstandingAtomics());
        assertEquals(0, h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL), "the waiting ones are kept");

        // Raised to 6, past the 4-entry ring: the waiting ones go at once, and the grown ring keeps the order.
        ki.maxOutstandingAtomics(6, h.now);
        frames = h.settle();
        assertEquals(4, frames.size());
        for (int i = 0; i < 4; i++)
        {
            assertEquals(6 + i, frames.get(i).addend());
            assertEquals(0x105 + i, frames.get(i).psn());
        }
        assertEquals(6, ki.outstandingAtomics());
        h.feed(atomicAck(KI_QPN, 0x103));
        frames = h.settle();
        assertEquals(1, frames.size(), "0x103 answered: one credit");
        assertEquals(10, frames.get(0).addend());
        assertEquals(6, ki.outstandingAtomics());
        h.feed(atomicAck(KI_QPN, 0x107));
        frames = h.settle();
        assertEquals(2, frames.size(), "the last two waiting");
        assertEquals(List.of(0x10a, 0x10b), frames.stream().map(Request::psn).toList());
        assertEquals(4, ki.outstandingAtomics(), "0x108 to 0x10b");
        h.feed(atomicAck(KI_QPN, 0x10b));
        assertEquals(0, ki.outstandingAtomics());
        assertThrows(IllegalArgumentException.class, () -> ki.maxOutstandingAtomics(0, h.now));
    }

    // ------------------------------------------------------------------ Append

    private static byte[] le(final int... words)
    {
        final ByteBuffer b = ByteBuffer.allocate(4 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        for (final int w : words)
        {
            b.putInt(w);
        }
        return b.array();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8, 16})
    void shouldBatchSequencedAppendsAndWrap(final int batch)
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = batch;
        final int recordLength = 4 * batch + 8;
        cfg.list1Length = 3L * recordLength;
        final EngineHarness h = new EngineHarness(cfg);
        final SplittableRandom random = new SplittableRandom(batch);
        int psn = 0x100;
        for (int seq = 1; seq <= 7; seq++)
        {
            final int[] words = new int[batch + 2];
            for (int i = 0; i < batch; i++)
            {
                words[i] = random.nextInt();
                h.feed(report(DtaOpcode.APPEND, append(1, words[i])));
                if (i < batch - 1)
                {
                    assertEquals(0, h.out.size());
                }
            }
            words[batch] = batch;
            words[batch + 1] = seq;
            final List<Request> frames = h.settle();
            assertEquals(1, frames.size(), "batch " + batch + " seq " + seq);
            final Request r = frames.get(0);
            assertEquals(L1_REMOTE, r.destQp());
            assertEquals(psn++, r.psn());
            assertEquals(L1_BASE + (long)((seq - 1) % 3) * recordLength, r.va());
            assertArrayEquals(le(words), r.payload());
            h.feed(ack(L1_QPN, r.psn()));
        }
    }

    @Test
    void shouldFlushPartialBatchAfterIdleTimeAndNotBefore()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // batch 4, idle 1000 us
        h.feed(report(DtaOpcode.APPEND, append(1, 0x11223344)));
        h.feed(report(DtaOpcode.APPEND, append(1, 0x55667788)));
        h.advance(999_999);
        assertEquals(0, h.count(EngineCounter.APPEND_PARTIAL_FLUSHES));
        h.advance(1);
        assertEquals(1, h.count(EngineCounter.APPEND_PARTIAL_FLUSHES));
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertArrayEquals(le(0x11223344, 0x55667788, 0, 0, 2, 1), frames.get(0).payload());
        assertTrue(frames.get(0).ackReq());
    }

    @Test
    void shouldFlushPartialBatchAtEnd()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.APPEND, append(1, 7)));
        h.feed(report(DtaOpcode.APPEND, append(0, 8)));
        h.engine.flush(h.now);
        final List<Request> frames = h.out.drainRequests();
        assertEquals(2, frames.size());
        final Request ref = frames.get(0).destQp() == L0_REMOTE ? frames.get(0) : frames.get(1);
        final Request seq = frames.get(0).destQp() == L0_REMOTE ? frames.get(1) : frames.get(0);
        assertArrayEquals(le(8), ref.payload());
        assertEquals(L0_BASE, ref.va());
        assertArrayEquals(le(7, 0, 0, 0, 1, 1), seq.payload());
        assertTrue(ref.ackReq());
        assertTrue(seq.ackReq());
    }

    @Test
    void shouldWrapReferenceListWithoutCrossingTheEnd()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // list 0: 64 bytes = 16 slots, batch 4
        final int[] sizes = {3, 4, 4, 4, 4, 2, 4, 4, 4, 1, 4};
        int head = 0;
        int value = 1;
        for (final int size : sizes)
        {
            final int[] words = new int[size];
            for (int i = 0; i < size; i++)
            {
                words[i] = value++;
                h.feed(report(DtaOpcode.APPEND, append(0, words[i])));
            }
            if (size < 4)
            {
                h.advance(1_000_000);
            }
            final List<Request> frames = h.settle();
            assertEquals(1, frames.size());
            final Request r = frames.get(0);
            final int slot = head + size > 16 ? 0 : head;
            head = slot + size;
            assertEquals(L0_BASE + 4L * slot, r.va(), "size " + size);
            assertTrue(r.va() + r.dmaLength() <= L0_BASE + 64);
            assertArrayEquals(le(words), r.payload());
            h.feed(ack(L0_QPN, r.psn()));
        }
    }

    @Test
    void shouldDropAppendToUnknownList()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.APPEND, append(5, 1)));
        h.feed(report(DtaOpcode.APPEND, append(-1, 1)));
        assertEquals(2, h.count(EngineCounter.DROP_NO_ROUTE));
        h.engine.flush(h.now);
        assertEquals(0, h.out.size());
    }

    // ------------------------------------------------------------------ Postcards

    private static int mix(final int key)
    {
        int x = key;
        x ^= x >>> 16;
        x *= 0x85ebca6b;
        x ^= x >>> 13;
        x *= 0xc2b2ae35;
        x ^= x >>> 16;
        return x;
    }

    private static byte[] record(final int key, final int mask, final int... hops)
    {
        final int[] words = new int[2 + hops.length];
        words[0] = key;
        words[1] = mask;
        System.arraycopy(hops, 0, words, 2, hops.length);
        return le(words);
    }

    @Test
    void shouldWriteCompletePathOnce()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final int key = 0x0A0B0C0D;
        for (int hop = 5; hop >= 1; hop--)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(key, hop, 100 + hop)));
            if (hop > 1)
            {
                assertEquals(0, h.settle().size());
            }
        }
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        final Request r = frames.get(0);
        assertEquals(PC_BASE + (slotHash(key, 0) & 255) * 32, r.va());
        assertEquals(28, r.dmaLength());
        assertArrayEquals(record(key, 0x1F, 101, 102, 103, 104, 105), r.payload());
        h.feed(ack(PC_QPN, r.psn()));
        h.advance(2_000_000);
        assertEquals(0, h.out.size(), "a complete flow is not written again");
    }

    @Test
    void shouldWriteEvictedFlowToItsOwnSlot()
    {
        final int a = 0x12345678;
        int b = a + 1;
        while ((mix(b) & 4095) != (mix(a) & 4095) || (slotHash(a, 0) & 255) == (slotHash(b, 0) & 255))
        {
            b++;
        }
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.POSTCARD, postcard(a, 1, 11)));
        h.feed(report(DtaOpcode.POSTCARD, postcard(a, 3, 33)));
        h.feed(report(DtaOpcode.POSTCARD, postcard(b, 2, 22)));
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(PC_BASE + (slotHash(a, 0) & 255) * 32, frames.get(0).va(), "old flow's own slot");
        assertArrayEquals(record(a, 0b101, 11, 0, 33, 0, 0), frames.get(0).payload());
        assertEquals(1, h.count(EngineCounter.POSTCARD_EVICTIONS));
        h.feed(ack(PC_QPN, frames.get(0).psn()));
        h.advance(999_000);
        assertEquals(0, h.out.size());
        h.advance(1_000);
        final List<Request> idle = h.settle();
        assertEquals(1, idle.size());
        assertEquals(PC_BASE + (slotHash(b, 0) & 255) * 32, idle.get(0).va());
        assertArrayEquals(record(b, 0b10, 0, 22, 0, 0, 0), idle.get(0).payload());
        assertEquals(1, h.count(EngineCounter.POSTCARD_IDLE_FLUSHES));
    }

    @Test
    void shouldJoinALateHopToTheRecordTheIdleFlushWrote()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final int key = 0x31415926;
        for (int hop = 1; hop <= 3; hop++)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(key, hop, 100 + hop)));
        }
        h.advance(1_000_000);
        final List<Request> flushed = h.settle();
        assertEquals(1, flushed.size());
        assertArrayEquals(record(key, 0b111, 101, 102, 103, 0, 0), flushed.get(0).payload());
        h.feed(ack(PC_QPN, flushed.get(0).psn()));
        h.advance(400_000);
        h.feed(report(DtaOpcode.POSTCARD, postcard(key, 4, 104)));
        assertEquals(0, h.settle().size(), "the late hop waits for the rest of the path");
        h.advance(1_000_000);
        final List<Request> joined = h.settle();
        assertEquals(1, joined.size());
        assertEquals(flushed.get(0).va(), joined.get(0).va());
        assertArrayEquals(record(key, 0b1111, 101, 102, 103, 104, 0), joined.get(0).payload(),
            "the written hops and the late one, not the late one alone");
        assertEquals(1, h.count(EngineCounter.POSTCARD_CARRIED_RECORDS));
        assertEquals(2, h.count(EngineCounter.POSTCARD_RECORDS));
    }

    @Test
    void shouldKeepACompletePathWhenADuplicateHopComesLate()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final int key = 0x27182818;
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(key, hop, 100 + hop)));
        }
        final List<Request> complete = h.settle();
        assertEquals(1, complete.size());
        h.feed(ack(PC_QPN, complete.get(0).psn()));
        h.advance(200_000);
        h.feed(report(DtaOpcode.POSTCARD, postcard(key, 3, 333)));
        h.advance(1_000_000);
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertArrayEquals(record(key, 0x1F, 101, 102, 333, 104, 105), frames.get(0).payload());
        assertEquals(1, h.count(EngineCounter.POSTCARD_CARRIED_RECORDS));
    }

    @Test
    void shouldWriteARepeatedPathOnceWithItsNewHops()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final int key = 0x16180339;
        for (int round = 0; round < 3; round++)
        {
            for (int hop = 1; hop <= 5; hop++)
            {
                h.feed(report(DtaOpcode.POSTCARD, postcard(key, hop, 100 * round + hop)));
                if (hop < 5)
                {
                    assertEquals(0, h.settle().size(), "round " + round + " hop " + hop);
                }
            }
            final List<Request> frames = h.settle();
            assertEquals(1, frames.size(), "round " + round);
            assertArrayEquals(record(key, 0x1F, 100 * round + 1, 100 * round + 2, 100 * round + 3, 100 * round + 4,
                100 * round + 5), frames.get(0).payload());
            h.advance(10_000);
        }
        assertEquals(0, h.count(EngineCounter.POSTCARD_CARRIED_RECORDS), "every record was the path reported anew");
    }

    @Test
    void shouldCarryTheWrittenHopsForAsLongAsTheEntryHoldsThem()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final int key = 0x14142135;
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(key, hop, 100 + hop)));
        }
        final List<Request> complete = h.settle();
        h.feed(ack(PC_QPN, complete.get(0).psn()));
        h.advance(30_000_000);
        h.feed(report(DtaOpcode.POSTCARD, postcard(key, 2, 222)));
        h.advance(1_000_000);
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertArrayEquals(record(key, 0x1F, 101, 222, 103, 104, 105), frames.get(0).payload(),
            "a late postcard updates its hop and keeps the others");
        assertEquals(1, h.count(EngineCounter.POSTCARD_CARRIED_RECORDS));
    }

    @Test
    void shouldNotCarryHopsOnceAnotherFlowTookTheEntry()
    {
        final int a = 0x0BADF00D;
        int b = a + 1;
        while ((mix(b) & 4095) != (mix(a) & 4095))
        {
            b++;
        }
        final EngineHarness h = new EngineHarness(new Cfg());
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(a, hop, 10 + hop)));
        }
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(report(DtaOpcode.POSTCARD, postcard(b, hop, 20 + hop)));
        }
        final List<Request> both = h.settle();
        assertEquals(2, both.size());
        h.feed(ack(PC_QPN, both.get(1).psn()));
        assertEquals(0, h.count(EngineCounter.POSTCARD_EVICTIONS), "a written record is no flow in flight");
        h.feed(report(DtaOpcode.POSTCARD, postcard(a, 4, 44)));
        h.advance(1_000_000);
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertArrayEquals(record(a, 0b1000, 0, 0, 0, 44, 0), frames.get(0).payload(),
            "the entry holds the other flow's record: nothing of the first to carry (a documented limit)");
    }

    @Test
    void shouldDropBadHop()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.POSTCARD, postcard(1, 0, 1)));
        h.feed(report(DtaOpcode.POSTCARD, postcard(1, 6, 1)));
        h.engine.flush(h.now);
        assertEquals(0, h.out.size());
        assertEquals(2, h.count(EngineCounter.DROP_BAD_HOP));
    }

    @Test
    void shouldKeepSeparateFlowsApart()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final List<Integer> keys = new ArrayList<>(List.of(1, 2, 3));
        for (int hop = 1; hop <= 5; hop++)
        {
            for (final int k : keys)
            {
                h.feed(report(DtaOpcode.POSTCARD, postcard(k, hop, k * 10 + hop)));
            }
        }
        final List<Request> frames = h.settle();
        assertEquals(3, frames.size());
        for (int i = 0; i < 3; i++)
        {
            final int k = keys.get(i);
            assertArrayEquals(record(k, 0x1F, k * 10 + 1, k * 10 + 2, k * 10 + 3, k * 10 + 4, k * 10 + 5),
                frames.get(i).payload());
            assertFalse(i < 2 && frames.get(i).ackReq());
        }
        assertNotEquals(frames.get(0).psn(), frames.get(1).psn());
    }
}
