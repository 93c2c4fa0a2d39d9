package io.dta.collector.responder;

import io.dta.codec.AethFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static io.dta.collector.responder.Requests.COLLECTOR_IP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A static region written by several translator QPs (an appliance's workers): one responder QP for the region's own
 * settings and one per {@code workerQueuePairs} entry, all over the region's one memory, each with its own PSN, MSN,
 * NAK episode and state.
 */
class WorkerQueuePairsTest
{
    private static final String YAML = Requests.yaml(100) + """
              workerQueuePairs:
                - localQpn: 0x10077
                  qpn: 0x212
                  startPsn: 5000
                - localQpn: 0x20077
                  qpn: 0x312
                  startPsn: 0xFFFFFF
        """;
    /** Per QP (index 0, 1, 2): the collector's QPN, the translator's QPN, the starting PSN. */
    private static final int[] QPN = { 0x112, 0x212, 0x312 };
    private static final int[] PEER = { 0x77, 0x10077, 0x20077 };
    private static final int[] START = { 100, 5000, 0xFFFFFF };

    private final ApplianceConfig config = ConfigLoader.load(YAML);
    private final RegionConfig region = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[Requests.LENGTH]);
    private final SoftResponder responder = Requests.responder(config, memory);
    private final Requests.Sink out = new Requests.Sink();

    @Test
    void shouldHostAQpForTheRegionAndOneForEachWorkerQueuePair()
    {
        final List<ResponderQp> qps = responder.qps(region);
        assertEquals(3, qps.size());
        assertEquals(qps, responder.qps());
        for (int i = 0; i < 3; i++)
        {
            final ResponderQp qp = qps.get(i);
            assertEquals(i, qp.index());
            assertEquals(QPN[i], qp.qpn());
            assertEquals(PEER[i], qp.peerQpn());
            assertEquals(START[i], qp.expectedPsn());
            assertEquals(ResponderQp.State.READY, qp.state());
            assertSame(region, qp.region());
            assertSame(qp, responder.qp(COLLECTOR_IP, QPN[i]));
        }
    }

    @Test
    void shouldLandWritesOfEveryQpInTheOneMemoryAndKeepEachQpsPsnToItself()
    {
        final byte[] expected = new byte[Requests.LENGTH];
        final int[] psn = START.clone();
        final SplittableRandom random = new SplittableRandom(0x3A11_0C8EL);
        // Interleaved WRITEs through the three QPs, each in its own PSN sequence, to random 8-byte slots.
        for (int n = 0; n < 60; n++)
        {
            final int i = random.nextInt(3);
            final int offset = 8 * random.nextInt(Requests.LENGTH / 8);
            final byte[] payload = new byte[8];
            random.nextBytes(payload);
            offer(write(i, psn[i], offset, payload));
            System.arraycopy(payload, 0, expected, offset, 8);
            assertAck(out.last(), i, psn[i]);
            psn[i] = (psn[i] + 1) & 0xFFFFFF;
        }
        assertArrayEquals(expected, memory.byteArray());

        // A PSN ahead on QP 1: one NAK 0x60 to its translator QP with its own ePSN; the other QPs do not notice.
        offer(write(1, psn[1] + 3, 0, new byte[8]));
        final Requests.Response nak = out.last();
        assertTrue(nak.isNak(AethFlyweight.NAK_PSN_SEQUENCE_ERROR));
        assertEquals(PEER[1], nak.destQp());
        assertEquals(psn[1], nak.psn());
        assertTrue(qp(1).nakOutstanding());
        final int[] offsets = { 0, 16, 8 };
        for (final int i : new int[] { 0, 2 })
        {
            assertFalse(qp(i).nakOutstanding());
            assertEquals(psn[i], qp(i).expectedPsn());
            final byte[] payload = { 9, 9, 9, 9, 9, 9, 9, (byte)i };
            offer(write(i, psn[i], offsets[i], payload));
            System.arraycopy(payload, 0, expected, offsets[i], 8);
            assertAck(out.last(), i, psn[i]);
            psn[i] = (psn[i] + 1) & 0xFFFFFF;
        }
        assertTrue(qp(1).nakOutstanding(), "still waiting for its own ePSN");
        offer(write(1, psn[1] + 4, 0, new byte[8]));
        assertEquals(1, responder.counter(ResponderCounter.OUT_OF_SEQUENCE_DROPPED));
        final byte[] one = { 1, 1, 1, 1, 1, 1, 1, 1 };
        offer(write(1, psn[1], offsets[1], one));
        System.arraycopy(one, 0, expected, offsets[1], 8);
        assertAck(out.last(), 1, psn[1]);
        assertFalse(qp(1).nakOutstanding());
        psn[1] = (psn[1] + 1) & 0xFFFFFF;

        // A duplicate on QP 2 is re-acknowledged with QP 2's ePSN - 1, nothing re-executed.
        offer(write(2, psn[2] - 2, 24, new byte[] { 7, 7, 7, 7, 7, 7, 7, 7 }));
        assertAck(out.last(), 2, (psn[2] - 1) & 0xFFFFFF);
        assertEquals(1, responder.counter(ResponderCounter.DUPLICATES));
        assertArrayEquals(expected, memory.byteArray());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(psn[i], qp(i).expectedPsn());
        }
        assertEquals(60 + 3, qp(0).msn() + qp(1).msn() + qp(2).msn());
    }

    @Test
    void shouldPutOnlyTheQpThatBrokeARuleInTheErrorState()
    {
        offer(Requests.frame(Requests.encoder().destQp(QPN[2]).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START[2])
            .ackReq(true).virtualAddress(Requests.BASE).rKey(Requests.RKEY + 1).dmaLength(-1)
            .payload(new UnsafeBuffer(new byte[8]), 0, 8)));
        assertTrue(out.last().isNak(AethFlyweight.NAK_REMOTE_ACCESS_ERROR));
        assertEquals(PEER[2], out.last().destQp());
        assertEquals(ResponderQp.State.ERROR, qp(2).state());
        for (final int i : new int[] { 0, 1 })
        {
            assertEquals(ResponderQp.State.READY, qp(i).state());
            offer(write(i, START[i], 8 * i, new byte[] { 5, 5, 5, 5, 5, 5, 5, (byte)i }));
            assertAck(out.last(), i, START[i]);
        }
        offer(write(2, START[2], 32, new byte[8]));
        assertEquals(1, responder.counter(ResponderCounter.QP_ERROR_DROPS));
    }

    @Test
    void shouldRefuseTwoStaticQpsOfOneCollectorWithOneCollectorQpnNamingTheKeyPath()
    {
        final ApplianceConfig clash = ConfigLoader.load(Requests.yaml(0) + """
                  workerQueuePairs:
                    - localQpn: 0x10077
                      qpn: 0x212
                    - localQpn: 0x20077
                      qpn: 0x112
            """);
        assertEquals(List.of("collectors[0].keyWrite.workerQueuePairs[1].qpn: collector QPN 0x112 is also " +
            "collectors[0].keyWrite.qpn on the same collector (requests are told apart by it)"),
            HostedQps.problems(clash.collectors()));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Requests.responder(clash, memory));
        assertTrue(ex.getMessage().startsWith("collectors[0].keyWrite.workerQueuePairs[1].qpn"), ex.getMessage());
        assertEquals(List.of(), HostedQps.problems(config.collectors()));
    }

    private ResponderQp qp(final int index)
    {
        return responder.qps(region).get(index);
    }

    private void assertAck(final Requests.Response ack, final int index, final int psn)
    {
        assertTrue(ack.isAck(), "ACK expected, syndrome 0x" + Integer.toHexString(ack.syndrome()));
        assertTrue(ack.icrcValid());
        assertEquals(PEER[index], ack.destQp());
        assertEquals(psn, ack.psn());
        assertEquals(qp(index).msn(), ack.msn());
    }

    private static byte[] write(final int index, final int psn, final int offset, final byte[] payload)
    {
        return Requests.frame(Requests.encoder().destQp(QPN[index]).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY)
            .psn(psn & 0xFFFFFF).ackReq(true).virtualAddress(Requests.BASE + offset).rKey(Requests.RKEY)
            .dmaLength(-1).payload(new UnsafeBuffer(payload), 0, payload.length));
    }

    private void offer(final byte[] frame)
    {
        Requests.offer(responder, frame, out);
    }
}
