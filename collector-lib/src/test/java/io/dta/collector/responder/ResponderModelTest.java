package io.dta.collector.responder;

import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded random request streams through a lossy, duplicating, reordering network, driven by a go-back-N requester
 * that listens to the responder. Every frame is also given to a small independent model of the RC responder rules
 * (written from rocev2-reference §3, not from the implementation): the responses must be identical, and in the end
 * memory must hold every request executed exactly once, in PSN order.
 */
class ResponderModelTest
{
    private static final int WINDOW_BYTES = 512;
    private static final int MASK = 0xFFFFFF;

    /** A request of the stream. */
    record Request(int psn, boolean atomic, int offset, byte[] payload, long add, boolean ackReq, byte[] frame)
    {
    }

    /** The independent model. */
    static final class Model
    {
        int ePsn;
        int msn;
        boolean nakSent;
        final byte[] memory = new byte[Requests.LENGTH];
        final Map<Integer, long[]> saved = new LinkedHashMap<>(16, 0.75f, false)
        {
            @Override
            protected boolean removeEldestEntry(final Map.Entry<Integer, long[]> eldest)
            {
                return size() > ResponderQp.SAVED_ATOMICS;
            }
        };

        Model(final int startPsn)
        {
            ePsn = startPsn;
        }

        /** Responses as text: kind psn msn [original]. */
        List<String> deliver(final Request r)
        {
            final List<String> out = new ArrayList<>();
            final int diff = ((r.psn - ePsn) & MASK);
            if (diff != 0 && diff < (1 << 23))
            {
                if (!nakSent)
                {
                    nakSent = true;
                    out.add("NAK96 " + ePsn + " " + msn);
                }
                return out;
            }
            if (diff != 0)
            {
                if (r.atomic)
                {
                    final long[] s = saved.get(r.psn);
                    if (null != s)
                    {
                        out.add("AACK " + r.psn + " " + s[1] + " " + s[0]);
                    }
                }
                else
                {
                    out.add("ACK " + ((ePsn - 1) & MASK) + " " + msn);
                }
                return out;
            }
            nakSent = false;
            ePsn = (r.psn + 1) & MASK;
            msn++;
            if (r.atomic)
            {
                final ByteBuffer bb = ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN);
                final long original = bb.getLong(r.offset);
                bb.putLong(r.offset, original + r.add);
                saved.put(r.psn, new long[] { original, msn });
                out.add("AACK " + r.psn + " " + msn + " " + original);
            }
            else
            {
                System.arraycopy(r.payload, 0, memory, r.offset, r.payload.length);
                if (r.ackReq)
                {
                    out.add("ACK " + r.psn + " " + msn);
                }
            }
            return out;
        }
    }

    private static String describe(final Requests.Response r)
    {
        if (r.opcode() == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
        {
            return "AACK " + r.psn() + " " + r.msn() + " " + r.original();
        }
        return ((r.syndrome() & 0x60) == 0x60 ? "NAK" + r.syndrome() : "ACK") + " " + r.psn() + " " + r.msn();
    }

    @Test
    void shouldMatchTheModelUnderLossDuplicationAndReordering()
    {
        final long masterSeed = System.nanoTime();
        final SplittableRandom master = new SplittableRandom(masterSeed);
        for (int run = 0; run < 300; run++)
        {
            final long seed = master.nextLong();
            try
            {
                runOne(seed);
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError("seed " + seed + " (master " + masterSeed + "): " + ex.getMessage(), ex);
            }
        }
    }

    @Test
    void shouldMatchTheModelAcrossThePsnWrap()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            try
            {
                runOne(seed * 7919, 0xFFFFFF - 40);
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError("seed " + seed * 7919 + ": " + ex.getMessage(), ex);
            }
        }
    }

    private static void runOne(final long seed)
    {
        runOne(seed, new SplittableRandom(seed).nextInt(1 << 24));
    }

    private static void runOne(final long seed, final int startPsn)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final ApplianceConfig config = Requests.config(startPsn);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[Requests.LENGTH]);
        final SoftResponder responder = Requests.responder(config, memory);
        final Model model = new Model(startPsn);

        final int count = 20 + rnd.nextInt(120);
        final Request[] requests = new Request[count];
        final byte[] intended = new byte[Requests.LENGTH];
        final long[] intendedOriginal = new long[count];
        final ByteBuffer intendedView = ByteBuffer.wrap(intended).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            final int psn = (startPsn + i) & MASK;
            final boolean atomic = rnd.nextInt(3) == 0;
            final boolean ackReq = i == count - 1 || rnd.nextInt(4) == 0;
            if (atomic)
            {
                final int offset = 8 * rnd.nextInt(WINDOW_BYTES / 8);
                final long add = rnd.nextLong();
                requests[i] = new Request(psn, true, offset, null, add, true,
                    Requests.fetchAdd(psn, Requests.BASE + offset, add));
                intendedOriginal[i] = intendedView.getLong(offset);
                intendedView.putLong(offset, intendedOriginal[i] + add);
            }
            else
            {
                final byte[] payload = new byte[rnd.nextInt(1, 33)];
                rnd.nextBytes(payload);
                final int offset = rnd.nextInt(WINDOW_BYTES - payload.length);
                requests[i] = new Request(psn, false, offset, payload, 0, ackReq,
                    Requests.writeOnly(psn, Requests.BASE + offset, payload, ackReq));
                System.arraycopy(payload, 0, intended, offset, payload.length);
            }
        }

        final double loss = rnd.nextDouble() * 0.2;
        final double duplication = rnd.nextDouble() * 0.2;
        final double reorder = rnd.nextDouble() * 0.2;
        final double responseLoss = rnd.nextDouble() * 0.2;
        final int window = 1 + rnd.nextInt(16);

        final ArrayDeque<Integer> network = new ArrayDeque<>();
        final Requests.Sink sink = new Requests.Sink();
        final long[] observedOriginal = new long[count];
        Arrays.fill(observedOriginal, Long.MIN_VALUE);
        int next = 0;
        int acked = 0;
        int steps = 0;
        while (acked < count)
        {
            assertTrue(++steps < 200_000, "requester converges");
            while (next < count && next - acked < window)
            {
                final int index = next++;
                if (rnd.nextDouble() >= loss)
                {
                    network.addLast(index);
                }
                if (rnd.nextDouble() < duplication)
                {
                    network.addLast(index);
                }
            }
            if (network.isEmpty())
            {
                // Timeout: go back to the oldest unacknowledged request.
                next = acked;
                continue;
            }
            if (network.size() > 1 && rnd.nextDouble() < reorder)
            {
                final int first = network.pollFirst();
                final int second = network.pollFirst();
                network.addFirst(first);
                network.addFirst(second);
            }
            final Request r = requests[network.pollFirst()];
            final int before = sink.responses.size();
            responder.onFrame(new UnsafeBuffer(r.frame), 0, r.frame.length, 0, sink);
            final List<String> expected = model.deliver(r);
            final List<String> actual = new ArrayList<>();
            for (int i = before; i < sink.responses.size(); i++)
            {
                final Requests.Response response = sink.responses.get(i);
                assertTrue(response.icrcValid());
                assertEquals(Requests.PEER_QPN, response.destQp());
                actual.add(describe(response));
            }
            assertEquals(expected, actual, "responses to PSN " + r.psn);

            for (int i = before; i < sink.responses.size(); i++)
            {
                if (rnd.nextDouble() < responseLoss)
                {
                    continue;
                }
                final Requests.Response response = sink.responses.get(i);
                final int index = (response.psn() - startPsn) & MASK;
                if (response.isNak(0))
                {
                    if (index >= acked && index <= next)
                    {
                        acked = index;
                        next = index;
                        network.clear();
                    }
                }
                else if (index < count && index + 1 > acked && index < next)
                {
                    acked = index + 1;
                    if (response.opcode() == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
                    {
                        observedOriginal[index] = response.original();
                    }
                }
            }
        }

        final byte[] stored = new byte[Requests.LENGTH];
        memory.getBytes(0, stored);
        assertArrayEquals(intended, stored, "memory holds every request once, in order");
        assertArrayEquals(model.memory, stored, "memory matches the model");
        for (int i = 0; i < count; i++)
        {
            if (observedOriginal[i] != Long.MIN_VALUE)
            {
                assertEquals(intendedOriginal[i], observedOriginal[i], "original value of request " + i);
            }
        }
        assertEquals(count, responder.counter(ResponderCounter.MESSAGES));
        assertEquals(ResponderQp.State.READY, responder.qp(Requests.COLLECTOR_IP, Requests.QPN).state());
    }
}
