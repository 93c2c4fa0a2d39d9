package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyWriteTranslationTest
{
    @ParameterizedTest
    @ValueSource(ints = {8, 16, 32})
    void shouldWriteNCopiesOnConsecutivePsnsAtHashedSlots(final int slotSize)
    {
        final long seed = 0x5EED0000L + slotSize;
        final SplittableRandom random = new SplittableRandom(seed);
        final Cfg cfg = new Cfg();
        cfg.slotSize = slotSize;
        cfg.kwLength = 256L * slotSize;
        final EngineHarness h = new EngineHarness(cfg);
        int expectedPsn = cfg.startPsn;
        int packets = 0;
        for (int i = 0; i < 500; i++)
        {
            final int n = 1 + random.nextInt(4);
            final int key = random.nextInt();
            final byte[] data = new byte[slotSize - 4];
            random.nextBytes(data);
            h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(n, key, data)));
            final List<Request> frames = h.settle();
            final String ctx = "seed=" + seed + " i=" + i;
            assertEquals(n, frames.size(), ctx);
            for (int c = 0; c < n; c++)
            {
                final Request r = frames.get(c);
                assertTrue(r.isWrite(), ctx);
                assertEquals(expectedPsn, r.psn(), ctx);
                expectedPsn = (expectedPsn + 1) & 0xFFFFFF;
                assertEquals(KW_REMOTE, r.destQp(), ctx);
                assertEquals(0x1234, r.rkey(), ctx);
                assertEquals(COLLECTOR_A, r.dstIp(), ctx);
                final long slot = slotHash(key, c) & 255;
                assertEquals(KW_BASE + slot * slotSize, r.va(), ctx);
                assertEquals(slotSize, r.dmaLength(), ctx);
                final ByteArrayOutputStream payload = new ByteArrayOutputStream();
                payload.writeBytes(le32((int)checksum(key)));
                payload.writeBytes(data);
                assertArrayEquals(payload.toByteArray(), r.payload(), ctx);
                // The last copy goes out idle, hence with AckReq, and so does every requestInterval-th packet.
                packets++;
                assertEquals(c == n - 1 || 0 == packets % cfg.requestInterval, r.ackReq(), ctx);
            }
            h.feed(ack(KW_QPN, (expectedPsn - 1) & 0xFFFFFF));
        }
        assertEquals(500, h.count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(500, h.count(EngineCounter.ACKS_IN));
        assertEquals(0, h.count(EngineCounter.PROBES_OUT));
        assertTrue(h.sender(KW_QPN).isQuiescent());
    }

    @Test
    void shouldDropBadRedundancy()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(0, 42, new byte[4])));
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(5, 42, new byte[4])));
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(255, 42, new byte[4])));
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(0, 42, 1)));
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(5, 42, 1)));
        assertEquals(0, h.settle().size());
        assertEquals(5, h.count(EngineCounter.DROP_BAD_REDUNDANCY));
        assertEquals(0, h.count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(0x100, h.sender(KW_QPN).nextPsn());
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(4, 42, new byte[4])));
        assertEquals(4, h.settle().size());
    }

    @Test
    void shouldHonourConfiguredRedundancyMax()
    {
        final Cfg cfg = new Cfg();
        cfg.redundancyMax = 2;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(3, 42, new byte[4])));
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(2, 42, new byte[4])));
        assertEquals(2, h.settle().size());
        assertEquals(1, h.count(EngineCounter.DROP_BAD_REDUNDANCY));
    }

    @Test
    void shouldRouteByDestinationIpAndDropUnknownCollector()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(REPORTER_1, COLLECTOR_B, 3, DtaOpcode.KEY_WRITE, 0, 0, keyWrite(1, 7, new byte[4])));
        h.feed(report(REPORTER_1, 0x0A0000FF, 3, DtaOpcode.KEY_WRITE, 0, 0, keyWrite(1, 7, new byte[4])));
        h.feed(report(REPORTER_1, COLLECTOR_B, 3, DtaOpcode.KEY_INCREMENT, 0, 0, keyIncrement(1, 7, 1)));
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(KWB_REMOTE, frames.get(0).destQp());
        assertEquals(COLLECTOR_B, frames.get(0).dstIp());
        assertEquals(KWB_BASE + (slotHash(7, 0) & 255) * 8, frames.get(0).va());
        assertEquals(2, h.count(EngineCounter.DROP_NO_ROUTE));
    }

    @Test
    void shouldAcceptTheTwoByteBaseHeader()
    {
        final Cfg cfg = new Cfg();
        cfg.baseHeader = "2";
        final EngineHarness h = new EngineHarness(cfg);
        final byte[] data = {1, 2, 3, 4};
        h.feed(report(REPORTER_1, COLLECTOR_A, 2, DtaOpcode.KEY_WRITE, 0, 0, keyWrite(1, 99, data)));
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertArrayEquals(new byte[] {
            (byte)checksum(99), (byte)(checksum(99) >> 8), (byte)(checksum(99) >> 16), (byte)(checksum(99) >> 24),
            1, 2, 3, 4}, frames.get(0).payload());
    }
}
