package io.dta.appliance.engine;

import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of translation.md §1 (reports in), §2 (routing) and §3 (Key-Write, Key-Increment, Append, Postcard),
 * and the dta-reference.md behaviours we keep or fix, each checked from the text with plain byte arithmetic: the
 * report frames are built byte by byte here (tags, options, padding, checksums), the expected addresses come from
 * the reference's worked tables, not from a CRC of ours.
 */
class PrimitiveSpecAuditTest
{
    private static final int KEY_WRITE = 0x01;
    private static final int APPEND = 0x02;
    private static final int KEY_INCREMENT = 0x03;
    private static final int POSTCARD = 0x04;

    private static final class Harness
    {
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine engine;
        long now = 1_000_000;

        Harness(final String yaml)
        {
            engine = new TranslatorEngine(ConfigLoader.load(yaml), out);
        }

        Harness(final Cfg cfg)
        {
            this(cfg.yaml());
        }

        Harness feed(final byte[] frame)
        {
            engine.pollNow(now);
            engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
            return this;
        }

        long count(final EngineCounter counter)
        {
            return engine.counters().get(counter);
        }

        Harness advance(final long nanos)
        {
            now += nanos;
            engine.pollNow(now);
            return this;
        }

        List<Request> settle()
        {
            now += TranslatorEngine.HOLD_NANOS;
            engine.pollNow(now);
            return out.drainRequests();
        }

        List<Request> end()
        {
            engine.flush(now);
            return out.drainRequests();
        }
    }

    // ------------------------------------------------------------------ §3 against dta-reference.md

    /**
     * dta-reference.md §2.2 worked table and §3.5 examples: where the reference is right (Key-Write checksum and
     * slots, Append entry order and byte swap) our payloads, addresses and DMA lengths are its bytes exactly; where
     * it was wrong (Key-Increment lengths and trailer, Compare) the frame is the correct one of §3.2.
     */
    @Test
    void shouldMatchTheReferenceWorkedExamplesByteForByte()
    {
        final Harness h = new Harness(new Cfg()); // Key-Write 256 slots of 8 bytes, counters 256, list 0 reference
        h.feed(new Wire().build(dta3(KEY_WRITE, kw(2, 1, 1))));
        final List<Request> kw = h.settle();
        assertEquals(2, kw.size());
        assertEquals(KW_BASE + 0x568, kw.get(0).va(), "key 1, n = 0: slot 173");
        assertEquals(KW_BASE + 0x1D8, kw.get(1).va(), "key 1, n = 1: slot 59");
        for (final Request r : kw)
        {
            assertEquals(8, r.dmaLength());
            assertEquals(0x1234, r.rkey());
            assertArrayEquals(hex("79b8f899 00000001"), r.payload());
        }
        assertEquals(kw.get(0).psn() + 1, kw.get(1).psn());

        h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(1, 1, 1))));
        final Request fa = h.settle().get(0);
        assertTrue(fa.isFetchAdd());
        assertEquals(KI_BASE + 0x568, fa.va());
        assertEquals(0x1235, fa.rkey());
        assertEquals(1, fa.addend());
        assertEquals(0, fa.compare());
        final ByteBuffer f = ByteBuffer.wrap(fa.bytes());
        assertEquals(86, fa.bytes().length, "no spurious checksum trailer");
        assertEquals(72, f.getShort(16), "IPv4 total length of a correct FETCH_ADD");
        assertEquals(52, f.getShort(38), "UDP length of a correct FETCH_ADD");

        for (int entry = 1; entry <= 4; entry++)
        {
            h.feed(new Wire().build(dta3(APPEND, ap(0, entry))));
        }
        final Request batch = h.settle().get(0);
        assertEquals(L0_BASE, batch.va());
        assertEquals(16, batch.dmaLength());
        assertArrayEquals(hex("01000000 02000000 03000000 04000000"), batch.payload());
    }

    /**
     * dta-reference.md §2.2 table of checksums and slot hashes for keys 0, 1, 2 and 123456789, N = 4, 256 slots.
     */
    @Test
    void shouldPutEveryCopyOfTheReferenceTableKeysInItsSlot()
    {
        final int[] keys = {0, 1, 2, 123456789};
        final String[] checksumBytes = {"1cdf4421", "79b8f899", "97174d8b", "9e6cdf18"};
        final int[][] hashes = {
            {0xC622F71D, 0xB125C78B, 0x282C9631, 0x5F2BA6A7},
            {0xFB42DEAD, 0x8C45EE3B, 0x154CBF81, 0x624B8F17},
            {0xBCE2A47D, 0xCBE594EB, 0x52ECC551, 0x25EBF5C7},
            {0xC5AD8EA2, 0xB2AABE34, 0x2BA3EF8E, 0x5CA4DF18}};
        final Harness h = new Harness(new Cfg());
        for (int k = 0; k < keys.length; k++)
        {
            h.feed(new Wire().build(dta3(KEY_WRITE, kw(4, keys[k], 0xCAFEF00D))));
            final List<Request> copies = h.settle();
            assertEquals(4, copies.size());
            for (int n = 0; n < 4; n++)
            {
                assertEquals(KW_BASE + (hashes[k][n] & 255) * 8L, copies.get(n).va(), "key " + keys[k] + " n " + n);
                assertArrayEquals(hex(checksumBytes[k] + "cafef00d"), copies.get(n).payload());
            }
            h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(4, keys[k], -2))));
            final List<Request> adds = h.settle();
            assertEquals(4, adds.size());
            for (int n = 0; n < 4; n++)
            {
                assertEquals(KI_BASE + (hashes[k][n] & 255) * 8L, adds.get(n).va(), "key " + keys[k] + " n " + n);
                assertEquals(-2, adds.get(n).addend());
            }
            h.feed(atomicAck(KI_QPN, adds.get(3).psn()));
        }
    }

    /**
     * §3: N = 1, N = redundancy.max (16 here) and the extreme keys; N = 0 and N = redundancy.max + 1 are dropped.
     */
    @Test
    void shouldTakeRedundancyUpToItsMaximumForTheExtremeKeys()
    {
        final Cfg cfg = new Cfg();
        cfg.redundancyMax = 16;
        cfg.maxAtomics = 16;
        cfg.atomicQueue = 16;
        final Harness h = new Harness(cfg);
        for (final int key : new int[] {0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0})
        {
            for (final int n : new int[] {1, 16})
            {
                h.feed(new Wire().build(dta3(KEY_WRITE, kw(n, key, 0x01020304))));
                final List<Request> copies = h.settle();
                assertEquals(n, copies.size());
                for (int c = 0; c < n; c++)
                {
                    assertEquals(KW_BASE + (slotHash(key, c) & 255) * 8, copies.get(c).va());
                    assertArrayEquals(hex("%08x01020304".formatted(Integer.reverseBytes((int)checksum(key)))),
                        copies.get(c).payload());
                    assertEquals(copies.get(0).psn() + c, copies.get(c).psn());
                }
                h.feed(ack(KW_QPN, copies.get(n - 1).psn()));
                h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(n, key, Long.MIN_VALUE))));
                final List<Request> adds = h.settle();
                assertEquals(n, adds.size());
                for (int c = 0; c < n; c++)
                {
                    assertEquals(KI_BASE + (slotHash(key, c) & 255) * 8, adds.get(c).va());
                    assertEquals(Long.MIN_VALUE, adds.get(c).addend());
                    assertEquals(0, adds.get(c).compare());
                }
                h.feed(atomicAck(KI_QPN, adds.get(n - 1).psn()));
            }
        }
        h.feed(new Wire().build(dta3(KEY_WRITE, kw(0, 1, 1))));
        h.feed(new Wire().build(dta3(KEY_WRITE, kw(17, 1, 1))));
        h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(0, 1, 1))));
        h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(17, 1, 1))));
        assertEquals(0, h.settle().size());
        assertEquals(4, h.count(EngineCounter.DROP_BAD_REDUNDANCY));
    }

    /**
     * The defaults of §1–§3 from a configuration that sets none of them: port 40040, the 3-byte form, no checksum
     * verification, redundancy.max 4, slotSize 8, batches of 4, 5 hops, 16 outstanding atomics, 1000 µs idle
     * flushes.
     */
    @Test
    void shouldApplyTheSpecDefaults()
    {
        final Harness h = new Harness("""
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            collectors:
              - mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 2048}
                keyIncrement: {localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000, length: 2048}
                postcards: {localQpn: 0x53b, qpn: 0x458, rkey: 0x1236, address: 0x7f0000200000, length: 8192}
                lists:
                  - {id: 7, localQpn: 0x53c, qpn: 0x459, rkey: 0x1237, address: 0x7f0000300000, length: 4096}
            """);
        final Wire staleChecksum = new Wire()
        {
            @Override
            byte[] build(final byte[] dta)
            {
                final byte[] f = super.build(dta);
                f[40] = 0x5A; // a stale UDP checksum, as the reference generators send
                f[41] = 0x5A;
                return f;
            }
        };
        h.feed(staleChecksum.build(dta3(KEY_WRITE, kw(4, 9, 9))));
        final List<Request> four = h.settle();
        assertEquals(4, four.size(), "N = 4 = default redundancy.max, UDP checksum not verified");
        assertEquals(8, four.get(0).dmaLength(), "default slotSize 8");
        h.feed(ack(KW_QPN, four.get(3).psn()));
        h.feed(staleChecksum.build(dta3(KEY_WRITE, kw(5, 9, 9))));
        assertEquals(1, h.count(EngineCounter.DROP_BAD_REDUNDANCY));
        h.feed(new Wire().build(dta(2, KEY_WRITE, 0, 0, kw(1, 9, 9))));
        assertEquals(1, h.count(EngineCounter.DROP_TRUNCATED), "the 2-byte form is not the default");
        final Wire otherPort = new Wire();
        otherPort.dstPort = 40041;
        h.feed(otherPort.build(dta3(KEY_WRITE, kw(1, 9, 9))));
        assertEquals(1, h.count(EngineCounter.OTHER_FRAMES));

        for (int i = 0; i < 3; i++)
        {
            h.feed(new Wire().build(dta3(APPEND, ap(7, i))));
        }
        assertEquals(0, h.settle().size());
        h.feed(new Wire().build(dta3(APPEND, ap(7, 3))));
        final Request batch = h.settle().get(0);
        assertEquals(4 * 4 + 8, batch.dmaLength(), "a batch of 4 in a sequenced record");
        h.feed(ack(0x53c, batch.psn()));
        h.feed(new Wire().build(dta3(APPEND, ap(7, 4))));
        h.advance(999_999);
        assertEquals(0, h.count(EngineCounter.APPEND_PARTIAL_FLUSHES));
        h.advance(1);
        assertEquals(1, h.count(EngineCounter.APPEND_PARTIAL_FLUSHES), "idle flush after 1000 µs");
        final List<Request> partial = h.settle();
        assertEquals(1, partial.size());
        h.feed(ack(0x53c, partial.get(0).psn()));

        for (int hop = 1; hop <= 4; hop++)
        {
            h.feed(new Wire().build(dta3(POSTCARD, pc(5, hop, hop))));
        }
        assertEquals(0, h.settle().size());
        h.feed(new Wire().build(dta3(POSTCARD, pc(5, 5, 5))));
        final Request record = h.settle().get(0);
        assertEquals(8 + 5 * 4, record.dmaLength(), "5 hops");
        h.feed(ack(PC_QPN, record.psn()));
        h.feed(new Wire().build(dta3(POSTCARD, pc(6, 6, 6))));
        assertEquals(1, h.count(EngineCounter.DROP_BAD_HOP));
        h.feed(new Wire().build(dta3(POSTCARD, pc(6, 1, 6))));
        h.advance(999_999);
        assertEquals(0, h.count(EngineCounter.POSTCARD_IDLE_FLUSHES));
        h.advance(1);
        assertEquals(1, h.count(EngineCounter.POSTCARD_IDLE_FLUSHES), "postcard idle flush after 1000 µs");
        final List<Request> idle = h.settle();
        assertEquals(1, idle.size());
        h.feed(ack(PC_QPN, idle.get(0).psn()));

        for (int i = 0; i < 17; i++)
        {
            h.feed(new Wire().build(dta3(KEY_INCREMENT, ki(1, i, 1))));
        }
        final List<Request> adds = h.settle();
        assertEquals(16, adds.size(), "16 unanswered atomics at most");
        h.feed(atomicAck(KI_QPN, adds.get(0).psn()));
        assertEquals(1, h.settle().size());
    }

    /**
     * dta-reference.md §7.2: the reference generators' base packets exactly as scapy built them (3-byte form, valid
     * checksums, unpadded, redundancy 4, key 1), and §7.4: the reference Reporter's 2-byte-form Key-Write (IPv4
     * length 39, UDP 0xC0DE → 40040 length 19, checksum 0, N = 2), padded to 60 bytes; under the form each uses and
     * under auto, with checksum verification on.
     */
    @Test
    void shouldTranslateTheReferenceGeneratorAndReporterFrames()
    {
        final byte[] keyWriteBasic = hex("b8cef6d212c7 000000000000 0800 4500 0028 0001 0000 40 11 65ca 0a0000c8"
            + "0a000033 9c69 9c68 0014 b0f3 010000 04 00000001 00000001");
        final byte[] keyIncrementBasic = hex("b8cef6d212c7 000000000000 0800 4500 002c 0001 0000 40 11 65c6"
            + "0a0000c8 0a000033 9c69 9c68 0018 aeeb 030000 04 00000001 0000000000000001");
        final byte[] appendBasic = hex("b8cef6d212c7 000000000000 0800 4500 0027 0001 0000 40 11 65cb 0a0000c8"
            + "0a000033 9c69 9c68 0013 affb 020000 00000000 00000000");
        final ByteBuffer reporter = ByteBuffer.allocate(60);
        reporter.put(hex("b8cef6d212c7 020000000001 0800 4500 0027 5678 4000 3f 11 0000 0a000007 0a000033"));
        reporter.putShort(24, (short)onesComplement(reporter.array(), 14, 20, 0));
        reporter.put(hex("c0de 9c68 0013 0000 01 00 02 0a000007 00005678"));
        final long[] key1Slots = {0xAD, 0x3B, 0x81, 0x17}; // dta-reference.md §2.2, key 1, & 255
        for (final String form : new String[] {"3", "auto"})
        {
            final Cfg cfg = new Cfg();
            cfg.baseHeader = form;
            final Harness h = new Harness(cfg.yaml()
                .replace("reports: {udpPort: 40040,", "reports: {udpPort: 40040, verifyChecksums: true,"));
            h.feed(keyWriteBasic);
            final List<Request> kw = h.settle();
            assertEquals(4, kw.size(), form);
            for (int n = 0; n < 4; n++)
            {
                assertEquals(KW_BASE + key1Slots[n] * 8, kw.get(n).va(), form + " n " + n);
                assertArrayEquals(hex("79b8f899 00000001"), kw.get(n).payload());
            }
            h.feed(keyIncrementBasic);
            final List<Request> ki = h.settle();
            assertEquals(4, ki.size(), form);
            for (int n = 0; n < 4; n++)
            {
                assertEquals(KI_BASE + key1Slots[n] * 8, ki.get(n).va(), form + " n " + n);
                assertEquals(1, ki.get(n).addend());
            }
            for (int i = 0; i < 4; i++)
            {
                h.feed(appendBasic);
            }
            final List<Request> ap = h.settle();
            assertEquals(1, ap.size(), form);
            assertEquals(L0_BASE, ap.get(0).va());
            assertArrayEquals(new byte[16], ap.get(0).payload());
            assertEquals(0, h.engine.counters().totalDrops(), form);
        }
        for (final String form : new String[] {"2", "auto"})
        {
            final Cfg cfg = new Cfg();
            cfg.baseHeader = form;
            final Harness h = new Harness(cfg.yaml()
                .replace("reports: {udpPort: 40040,", "reports: {udpPort: 40040, verifyChecksums: true,"));
            h.feed(reporter.array());
            final List<Request> kw = h.settle();
            assertEquals(2, kw.size(), form);
            for (int n = 0; n < 2; n++)
            {
                assertEquals(KW_BASE + (slotHash(0x0a000007, n) & 255) * 8, kw.get(n).va());
                assertArrayEquals(hex("%08x00005678".formatted(Integer.reverseBytes((int)checksum(0x0a000007)))),
                    kw.get(n).payload());
            }
        }
    }

    /**
     * §3 Append under {@code layout: reference}: a batch refused in a grace period does not move the head (the
     * reference advanced it, leaving a hole); list ids 256 and 257 do not alias lists 0 and 1 (the reference's
     * 256-entry registers did).
     */
    @Test
    void shouldNotMoveTheReferenceHeadForARefusedBatchNorAliasListIds()
    {
        final Harness h = new Harness(new Cfg()); // list 0: reference, 16 slots, batch 4
        for (int i = 0; i < 4; i++)
        {
            h.feed(new Wire().build(dta3(APPEND, ap(0, i))));
        }
        final Request first = h.settle().get(0);
        assertEquals(L0_BASE, first.va());
        h.feed(nak(L0_QPN, 0x60, first.psn() + 1));
        for (int i = 0; i < 4; i++)
        {
            h.feed(new Wire().build(dta3(APPEND, ap(0, 10 + i))));
        }
        assertEquals(0, h.settle().size());
        assertEquals(4, h.count(EngineCounter.DROP_GRACE_PERIOD));
        h.advance(2_000_000);
        for (int i = 0; i < 4; i++)
        {
            h.feed(new Wire().build(dta3(APPEND, ap(0, 20 + i))));
        }
        final Request after = h.settle().get(0);
        assertEquals(L0_BASE + 16, after.va(), "right after the batch that landed");
        assertEquals(first.psn() + 1, after.psn());

        h.feed(new Wire().build(dta3(APPEND, ap(256, 1))));
        h.feed(new Wire().build(dta3(APPEND, ap(257, 1))));
        assertEquals(2, h.count(EngineCounter.DROP_NO_ROUTE));
    }

    // ------------------------------------------------------------------ §1

    /**
     * §1: a frame shorter than 60 bytes is padded on the wire; the report ends where its UDP length says, whatever
     * the padding holds, in each base-header form and with auto detection.
     */
    @Test
    void shouldParsePaddedMinimumFramesByTheUdpLength()
    {
        for (final String form : new String[] {"3", "2", "auto"})
        {
            for (final byte padByte : new byte[] {0, (byte)0xEE, (byte)0xFF})
            {
                final Cfg cfg = new Cfg();
                cfg.baseHeader = form;
                cfg.batchSize = 1;
                final Harness h = new Harness(cfg);
                final int wire = "2".equals(form) ? 2 : 3;
                final Wire w = new Wire();
                w.padByte = padByte;
                final String ctx = "form " + form + " pad " + padByte;
                final byte[] appendFrame = w.build(dta(wire, APPEND, 0, 0, ap(0, 0x0A0B0C0D)));
                assertEquals(60, appendFrame.length);
                h.feed(appendFrame);
                final List<Request> appended = h.settle();
                assertEquals(1, appended.size(), ctx);
                assertArrayEquals(hex("0d0c0b0a"), appended.get(0).payload(), ctx);
                h.feed(w.build(dta(wire, KEY_WRITE, 0, 0, kw(1, 3, 0x11223344))));
                final List<Request> written = h.settle();
                assertEquals(1, written.size(), ctx);
                assertEquals(0x11223344, ByteBuffer.wrap(written.get(0).payload()).getInt(4), ctx);
                h.feed(w.build(dta(wire, KEY_INCREMENT, 0, 0, ki(1, 3, 0x0102030405060708L))));
                final List<Request> added = h.settle();
                assertEquals(1, added.size(), ctx);
                assertEquals(0x0102030405060708L, added.get(0).addend(), ctx);
                assertEquals(3, h.count(EngineCounter.REPORTS_TRANSLATED), ctx);
                assertEquals(0, h.engine.counters().totalDrops(), ctx);
            }
        }
    }

    /**
     * §1: frames that are not reports (not IPv4, not UDP, UDP to another port, more tags than two) are skipped
     * and are no dropped reports, whatever else is wrong with them.
     */
    @Test
    void shouldSkipFramesThatAreNotReportsWithoutCountingDrops()
    {
        final Harness h = new Harness(new Cfg());
        final byte[] sub = dta3(KEY_WRITE, kw(1, 1, 1));
        final Wire ipv6 = new Wire();
        ipv6.etherType = 0x86DD;
        final Wire arp = new Wire();
        arp.etherType = 0x0806;
        final Wire tcp = new Wire();
        tcp.protocol = 6;
        final Wire otherPort = new Wire();
        otherPort.dstPort = 40041;
        final Wire otherPortLongUdp = new Wire();
        otherPortLongUdp.dstPort = 5353;
        otherPortLongUdp.udpLengthDelta = 200;
        final Wire otherPortShortUdp = new Wire();
        otherPortShortUdp.dstPort = 5353;
        otherPortShortUdp.udpLengthDelta = -sub.length - 3;
        final Wire otherPortFirstFragment = new Wire();
        otherPortFirstFragment.dstPort = 5353;
        otherPortFirstFragment.fragment = 0x2000;
        final Wire threeTags = new Wire();
        threeTags.tags = new int[] {0x88A80001, 0x81000002, 0x81000003};
        final Wire[] wires = {ipv6, arp, tcp, otherPort, otherPortLongUdp, otherPortShortUdp, otherPortFirstFragment,
            threeTags};
        for (int i = 0; i < wires.length; i++)
        {
            h.feed(wires[i].build(sub));
            assertEquals(i + 1, h.count(EngineCounter.OTHER_FRAMES), "frame " + i);
        }
        assertEquals(0, h.count(EngineCounter.REPORTS_IN));
        assertEquals(0, h.engine.counters().totalDrops());
        assertEquals(0, h.end().size());
    }

    /**
     * §1: a datagram to the report port whose UDP length reaches past the IP datagram is a report cut short, one
     * whose UDP length is below the header's 8 bytes a report of bad length, both counted as reports; a RoCEv2
     * response with a bad UDP checksum is no report.
     */
    @Test
    void shouldCountReportsWithAnImpossibleUdpLengthAsReportsAndBadResponsesAsNone()
    {
        final Harness h = new Harness(new Cfg().yaml()
            .replace("reports: {udpPort: 40040,", "reports: {udpPort: 40040, verifyChecksums: true,"));
        final byte[] good = dta3(KEY_WRITE, kw(1, 1, 1));
        final Wire beyond = new Wire();
        beyond.udpLengthDelta = 1;
        h.feed(beyond.build(good));
        final Wire below = new Wire();
        below.udpLengthDelta = -good.length - 8;
        h.feed(below.build(good));
        final Wire cutShort = new Wire();
        cutShort.udpLengthDelta = 10;
        cutShort.ipLengthDelta = 10;
        cutShort.padTo = 0;
        h.feed(cutShort.build(good));
        assertEquals(2, h.count(EngineCounter.DROP_TRUNCATED), "IP and UDP lengths past the frame");
        assertEquals(1, h.count(EngineCounter.DROP_BAD_LENGTH));
        assertEquals(3, h.count(EngineCounter.REPORTS_IN));
        assertEquals(0, h.count(EngineCounter.DROP_MALFORMED));
        final Wire cutShortElsewhere = new Wire();
        cutShortElsewhere.ipLengthDelta = 10;
        cutShortElsewhere.padTo = 0;
        cutShortElsewhere.dstPort = 5353;
        h.feed(cutShortElsewhere.build(good));
        assertEquals(1, h.count(EngineCounter.OTHER_FRAMES));
        assertEquals(3, h.count(EngineCounter.REPORTS_IN));

        final byte[] response = ack(KW_QPN, 0x100);
        response[40] = 0x12;
        response[41] = 0x34;
        h.feed(response);
        assertEquals(1, h.count(EngineCounter.DROP_BAD_CHECKSUM));
        assertEquals(3, h.count(EngineCounter.REPORTS_IN), "a response is no report");
        assertEquals(0, h.end().size());
    }

    /**
     * §1: {@code reports.udpPort} is the port reports are taken on, and only that one.
     */
    @Test
    void shouldTakeReportsOnTheConfiguredPortOnly()
    {
        final Harness h = new Harness(new Cfg().yaml().replace("udpPort: 40040", "udpPort: 5000"));
        final Wire configured = new Wire();
        configured.dstPort = 5000;
        h.feed(configured.build(dta3(KEY_WRITE, kw(1, 1, 1))));
        h.feed(new Wire().build(dta3(KEY_WRITE, kw(1, 1, 1))));
        assertEquals(1, h.settle().size());
        assertEquals(1, h.count(EngineCounter.REPORTS_IN));
        assertEquals(1, h.count(EngineCounter.OTHER_FRAMES));
    }

    /**
     * §1: a report whose lengths do not hold together is dropped and counted under a named reason as a report: a
     * UDP length beyond the datagram or below its header, a report shorter or longer than its primitive's fixed
     * size (Key-Write data shorter or longer than the slot), in each form; nothing is sent.
     */
    @Test
    void shouldDropReportsOfTheWrongLengthUnderNamedReasons()
    {
        for (final String form : new String[] {"3", "2", "auto"})
        {
            final Cfg cfg = new Cfg();
            cfg.baseHeader = form;
            cfg.batchSize = 1;
            final Harness h = new Harness(cfg);
            final int wire = "2".equals(form) ? 2 : 3;
            final String ctx = "form " + form;
            final byte[] good = dta(wire, KEY_WRITE, 0, 0, kw(1, 1, 1));

            final Wire udpBeyondDatagram = new Wire();
            udpBeyondDatagram.udpLengthDelta = 4;
            h.feed(udpBeyondDatagram.build(good));
            assertEquals(1, h.count(EngineCounter.DROP_TRUNCATED), ctx);

            final Wire udpBelowHeader = new Wire();
            udpBelowHeader.udpLengthDelta = -good.length - 1;
            h.feed(udpBelowHeader.build(good));
            assertEquals(1, h.count(EngineCounter.DROP_BAD_LENGTH), ctx);

            // Under auto, one byte short of the three-byte form is the two-byte form's length: cut two.
            final int cut = "auto".equals(form) ? 2 : 1;
            h.feed(new Wire().build(Arrays.copyOf(good, good.length - cut)));
            assertEquals(2, h.count(EngineCounter.DROP_TRUNCATED), ctx + ": data shorter than the slot");
            h.feed(new Wire().build(Arrays.copyOf(good, good.length + 4)));
            assertEquals(2, h.count(EngineCounter.DROP_BAD_LENGTH), ctx + ": data longer than the slot");
            h.feed(new Wire().build(Arrays.copyOf(dta(wire, APPEND, 0, 0, ap(0, 1)), wire + 9)));
            assertEquals(3, h.count(EngineCounter.DROP_BAD_LENGTH), ctx + ": Append one byte long");
            h.feed(new Wire().build(Arrays.copyOf(dta(wire, KEY_INCREMENT, 0, 0, ki(1, 1, 1)), wire + 13 - cut)));
            assertEquals(3, h.count(EngineCounter.DROP_TRUNCATED), ctx + ": Key-Increment short");
            h.feed(new Wire().build(Arrays.copyOf(dta(wire, POSTCARD, 0, 0, pc(1, 1, 1)), wire + 10)));
            assertEquals(4, h.count(EngineCounter.DROP_BAD_LENGTH), ctx + ": Postcard one byte long");
            h.feed(new Wire().build(new byte[0]));
            assertEquals(4, h.count(EngineCounter.DROP_TRUNCATED), ctx + ": no DTA byte");

            assertEquals(8, h.count(EngineCounter.REPORTS_IN), ctx);
            assertEquals(0, h.count(EngineCounter.REPORTS_TRANSLATED), ctx);
            assertEquals(0, h.end().size(), ctx);
            h.feed(new Wire().build(good));
            assertEquals(1, h.end().size(), ctx);
        }
    }

    /**
     * §1: fragments are dropped and counted (a first fragment to the report port, a later fragment, which carries
     * no port); DF alone is no fragment.
     */
    @Test
    void shouldDropFragmentsButNotDontFragment()
    {
        final Harness h = new Harness(new Cfg());
        final byte[] sub = dta3(KEY_WRITE, kw(1, 1, 1));
        final Wire first = new Wire();
        first.fragment = 0x2000;
        final Wire later = new Wire();
        later.fragment = 0x000D;
        final Wire last = new Wire();
        last.fragment = 0x4000 | 0x0001;
        h.feed(first.build(sub)).feed(later.build(sub)).feed(last.build(sub));
        assertEquals(3, h.count(EngineCounter.DROP_FRAGMENTED));
        final Wire noFlags = new Wire();
        noFlags.fragment = 0;
        h.feed(noFlags.build(sub)).feed(new Wire().build(sub));
        assertEquals(2, h.settle().size());
    }

    /**
     * §1: with {@code verifyChecksums: true}, a correct UDP checksum (pseudo-header, datagram by its UDP length,
     * not the padding; through two tags and IPv4 options) or none passes, a wrong one or a wrong IPv4 header
     * checksum drops; without it, both wrong checksums pass.
     */
    @Test
    void shouldVerifyChecksumsThroughTagsOptionsAndPaddingOnlyWhenAsked()
    {
        final String verify = new Cfg().yaml()
            .replace("reports: {udpPort: 40040,", "reports: {udpPort: 40040, verifyChecksums: true,");
        final byte[] sub = dta3(APPEND, ap(0, 1));
        final Wire good = new Wire();
        good.tags = new int[] {0x88A80064, 0x81002007};
        good.ipOptions = 2;
        good.udpChecksum = true;
        good.padTo = 200;
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200; i++)
        {
            final Harness h = new Harness(verify);
            good.srcIp = random.nextInt();
            good.padByte = (byte)random.nextInt();
            final byte[] data = dta3(APPEND, ap(0, random.nextInt()));
            final byte[] f = good.build(data);
            h.feed(f);
            final byte[] wrongUdp = f.clone();
            wrongUdp[14 + 8 + 28 + 6] ^= 0x01;
            h.feed(wrongUdp);
            final byte[] wrongIp = f.clone();
            wrongIp[14 + 8 + 10] ^= 0x01;
            h.feed(wrongIp);
            final byte[] none = f.clone();
            none[14 + 8 + 28 + 6] = 0;
            none[14 + 8 + 28 + 7] = 0;
            h.feed(none);
            assertEquals(2, h.count(EngineCounter.APPEND_ENTRIES), "seed 42 case " + i);
            assertEquals(2, h.count(EngineCounter.DROP_BAD_CHECKSUM), "seed 42 case " + i);

            final Harness lax = new Harness(new Cfg());
            lax.feed(wrongUdp).feed(wrongIp);
            assertEquals(2, lax.count(EngineCounter.APPEND_ENTRIES));
        }
        final Harness h = new Harness(verify);
        h.feed(new Wire().build(sub));
        assertEquals(1, h.count(EngineCounter.APPEND_ENTRIES));
    }

    /**
     * §1: the flags of the 3-byte form (immediate counted, essential counted, reserved bits ignored); the 2-byte
     * form has only immediate, its other bits (left uninitialised by the reference Reporter) mean nothing.
     */
    @Test
    void shouldReadTheFlagsOfEachForm()
    {
        final Harness three = new Harness(new Cfg());
        three.feed(new Wire().build(dta(3, KEY_WRITE, 0, 0x80, kw(1, 1, 1))));
        three.feed(new Wire().build(dta(3, KEY_WRITE, 0, 0x1F, kw(1, 1, 1))));
        three.feed(new Wire().build(dta(3, KEY_WRITE, 0, 0xA0, kw(1, 1, 1))));
        assertEquals(3, three.settle().size());
        assertEquals(2, three.count(EngineCounter.IMMEDIATE_REPORTS));
        assertEquals(1, three.count(EngineCounter.ESSENTIAL_REPORTS));

        final Cfg cfg = new Cfg();
        cfg.baseHeader = "2";
        final Harness two = new Harness(cfg);
        final int[] flags = {0x80, 0x7F, 0x60, 0x40, 0x20};
        for (int i = 0; i < flags.length; i++)
        {
            two.feed(new Wire().build(dta(2, KEY_WRITE, 0, flags[i], kw(1, i, 1))));
        }
        assertEquals(5, two.settle().size());
        assertEquals(1, two.count(EngineCounter.IMMEDIATE_REPORTS));
        assertEquals(0, two.count(EngineCounter.ESSENTIAL_REPORTS));
        assertEquals(0, two.count(EngineCounter.REPORTER_NACKS_OUT), "no seqnum, no tracking");
        assertEquals(0, two.count(EngineCounter.DROP_SEQUENCE_GAP));
    }

    /**
     * §1: opcodes other than 0x01–0x05 are dropped and counted, in each form.
     */
    @Test
    void shouldDropUnknownOpcodesInEveryForm()
    {
        for (final String form : new String[] {"3", "2", "auto"})
        {
            final Cfg cfg = new Cfg();
            cfg.baseHeader = form;
            final Harness h = new Harness(cfg);
            final int[] opcodes = {0x00, 0x06, 0x11, 0x80, 0xFF};
            for (final int opcode : opcodes)
            {
                h.feed(new Wire().build(dta("2".equals(form) ? 2 : 3, opcode, 0, 0, kw(1, 1, 1))));
            }
            h.feed(new Wire().build(new byte[] {0x07}));
            assertEquals(opcodes.length + 1, h.count(EngineCounter.DROP_UNKNOWN_OPCODE), "form " + form);
            assertEquals(opcodes.length + 1, h.count(EngineCounter.REPORTS_IN), "form " + form);
            assertEquals(0, h.end().size());
        }
    }

    /**
     * §1 {@code auto}: each primitive in each form by its UDP length; a length fitting neither form is "bad length".
     */
    @Test
    void shouldTellTheFormsApartByLengthUnderAuto()
    {
        final Cfg cfg = new Cfg();
        cfg.baseHeader = "auto";
        cfg.batchSize = 1;
        final Harness h = new Harness(cfg);
        for (final int form : new int[] {3, 2})
        {
            h.feed(new Wire().build(dta(form, KEY_WRITE, 0x77, 0, kw(1, 0x10, 0x20))));
            h.feed(new Wire().build(dta(form, KEY_INCREMENT, 0x77, 0, ki(1, 0x10, 0x20))));
            h.feed(new Wire().build(dta(form, APPEND, 0x77, 0, ap(1, 0x20))));
            h.feed(new Wire().build(dta(form, POSTCARD, 0x77, 0, pc(0x10, 1, 0x20))));
            h.engine.flush(h.now);
            final List<Request> out = h.out.drainRequests();
            assertEquals(4, out.size(), "form " + form);
            for (final Request r : out)
            {
                if (r.isFetchAdd())
                {
                    assertEquals(KI_BASE + (slotHash(0x10, 0) & 255) * 8, r.va());
                    assertEquals(0x20, r.addend());
                }
                else if (r.destQp() == KW_REMOTE)
                {
                    assertEquals(KW_BASE + (slotHash(0x10, 0) & 255) * 8, r.va());
                    assertEquals(0x20, ByteBuffer.wrap(r.payload()).getInt(4));
                }
                else if (r.destQp() == L1_REMOTE)
                {
                    assertEquals(0x20, ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
                }
                else
                {
                    assertEquals(PC_REMOTE, r.destQp());
                    assertEquals(PC_BASE + (slotHash(0x10, 0) & 255) * 32, r.va());
                }
            }
            for (final Request r : out)
            {
                final int qpn = r.isFetchAdd() ? KI_QPN : r.destQp() == KW_REMOTE ? KW_QPN :
                    r.destQp() == L1_REMOTE ? L1_QPN : PC_QPN;
                h.feed(r.isFetchAdd() ? atomicAck(qpn, r.psn()) : ack(qpn, r.psn()));
            }
        }
        h.feed(new Wire().build(Arrays.copyOf(dta(3, KEY_WRITE, 0, 0, kw(1, 1, 1)), 13)));
        h.feed(new Wire().build(Arrays.copyOf(dta(3, APPEND, 0, 0, ap(1, 1)), 9)));
        assertEquals(1, h.count(EngineCounter.DROP_BAD_LENGTH));
        assertEquals(1, h.count(EngineCounter.DROP_TRUNCATED));
    }

    // ------------------------------------------------------------------ §2

    /**
     * §2: Append goes to the list with its id whatever the IPv4 destination; list ids up to 0xFFFFFFFF route; an
     * unknown id is "no route". Key-Increment and Postcard route by destination: a collector without the region, or
     * no collector, is "no route".
     */
    @Test
    void shouldRouteAppendByListIdAloneAndTheRestByDestination()
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = 1;
        final Harness h = new Harness(cfg.yaml().replace("{id: 0,", "{id: 0xFFFFFFFF,")
            .replace("{id: 1,", "{id: 0x80000000,"));
        final Wire toB = new Wire();
        toB.dstIp = COLLECTOR_B;
        final Wire toNobody = new Wire();
        toNobody.dstIp = 0x0A0000FE;
        h.feed(toB.build(dta3(APPEND, ap(0xFFFFFFFF, 1))));
        h.feed(toNobody.build(dta3(APPEND, ap(0x80000000, 2))));
        final List<Request> lists = h.settle();
        assertEquals(2, lists.size());
        assertEquals(L0_REMOTE, lists.get(0).destQp());
        assertEquals(COLLECTOR_A, lists.get(0).dstIp());
        assertEquals(L1_REMOTE, lists.get(1).destQp());
        h.feed(new Wire().build(dta3(APPEND, ap(0, 1))));
        h.feed(new Wire().build(dta3(APPEND, ap(0x7FFFFFFF, 1))));
        h.feed(toB.build(dta3(KEY_INCREMENT, ki(1, 1, 1))));
        h.feed(toB.build(dta3(POSTCARD, pc(1, 1, 1))));
        h.feed(toNobody.build(dta3(KEY_WRITE, kw(1, 1, 1))));
        h.feed(toNobody.build(dta3(POSTCARD, pc(1, 1, 1))));
        assertEquals(6, h.count(EngineCounter.DROP_NO_ROUTE));
        assertEquals(0, h.end().size());
    }

    // ------------------------------------------------------------------ §3 Append and Postcard edges

    /**
     * §3 {@code layout: reference}: full batches fill the ring to its last slot exactly, then start again at slot 0
     * (the reference wrote two batches at 0, losing one per lap); no write passes the end; entries LE in order.
     */
    @Test
    void shouldWrapTheReferenceRingExactlyAtItsEnd()
    {
        final Harness h = new Harness(new Cfg()); // list 0: 16 slots, batch 4
        int value = 1;
        for (int batch = 0; batch < 9; batch++)
        {
            final ByteBuffer expected = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 4; i++)
            {
                expected.putInt(value);
                h.feed(new Wire().build(dta3(APPEND, ap(0, value++))));
            }
            final List<Request> out = h.settle();
            assertEquals(1, out.size());
            assertEquals(L0_BASE + 16L * (batch % 4), out.get(0).va(), "batch " + batch);
            assertArrayEquals(expected.array(), out.get(0).payload());
            h.feed(ack(L0_QPN, out.get(0).psn()));
        }
    }

    /**
     * §3 Postcard: keys 0 and 0xFFFFFFFF are flows like any other (the reference took key 0 for an empty entry);
     * hops 1 and H are in range, 0 and H + 1 are not; a repeated hop keeps the later value; H = 1 and H = 6.
     */
    @Test
    void shouldTakePostcardEdgeKeysAndHops()
    {
        final Harness h = new Harness(new Cfg());
        for (final int key : new int[] {0, 0xFFFFFFFF})
        {
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 1, 1))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 2, 2))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 2, 22))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 0, 9))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 6, 9))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 3, 3))));
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 4, 4))));
            assertEquals(0, h.settle().size());
            h.feed(new Wire().build(dta3(POSTCARD, pc(key, 5, 5))));
            final List<Request> out = h.settle();
            assertEquals(1, out.size(), "key " + key);
            assertEquals(PC_BASE + (slotHash(key, 0) & 255) * 32, out.get(0).va());
            final ByteBuffer expected = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
            expected.putInt(key).putInt(0x1F).putInt(1).putInt(22).putInt(3).putInt(4).putInt(5);
            assertArrayEquals(expected.array(), out.get(0).payload());
            h.feed(ack(PC_QPN, out.get(0).psn()));
        }
        assertEquals(4, h.count(EngineCounter.DROP_BAD_HOP));

        final Cfg one = new Cfg();
        one.hops = 1;
        final Harness single = new Harness(one);
        single.feed(new Wire().build(dta3(POSTCARD, pc(8, 1, 80))));
        single.feed(new Wire().build(dta3(POSTCARD, pc(8, 2, 80))));
        final List<Request> out = single.settle();
        assertEquals(1, out.size());
        assertEquals(12, out.get(0).dmaLength());
        assertEquals(1, single.count(EngineCounter.DROP_BAD_HOP));

        final Cfg six = new Cfg();
        six.hops = 6;
        final Harness longest = new Harness(six);
        for (int hop = 6; hop >= 1; hop--)
        {
            longest.feed(new Wire().build(dta3(POSTCARD, pc(9, hop, hop))));
        }
        longest.feed(new Wire().build(dta3(POSTCARD, pc(9, 7, 7))));
        final List<Request> full = longest.settle();
        assertEquals(1, full.size());
        assertEquals(32, full.get(0).dmaLength());
        assertEquals(1, longest.count(EngineCounter.DROP_BAD_HOP));
    }

    // ------------------------------------------------------------------ frame building, from the text

    /**
     * A report frame built byte by byte.
     */
    private static class Wire
    {
        int[] tags = {};
        int ipOptions;
        int srcIp = REPORTER_1;
        int dstIp = COLLECTOR_A;
        int dstPort = 40040;
        int fragment = 0x4000;
        int protocol = 17;
        int udpLengthDelta;
        int ipLengthDelta;
        boolean udpChecksum;
        int padTo = 60;
        byte padByte = (byte)0xEE;
        int etherType = 0x0800;
        int ipVersion = 4;

        byte[] build(final byte[] dta)
        {
            final int ipHeader = 20 + 4 * ipOptions;
            final int udpLength = 8 + dta.length;
            final int ipLength = ipHeader + udpLength;
            final ByteArrayOutputStream f = new ByteArrayOutputStream();
            f.writeBytes(new byte[] {2, 0, 10, 0, 0, 0x65, 2, 0, 10, 1, 0, 1});
            for (final int tag : tags)
            {
                f.write(tag >>> 24);
                f.write(tag >>> 16);
                f.write(tag >>> 8);
                f.write(tag);
            }
            f.write(etherType >>> 8);
            f.write(etherType);
            final ByteBuffer ip = ByteBuffer.allocate(ipLength).order(ByteOrder.BIG_ENDIAN);
            ip.put((byte)(ipVersion << 4 | ipHeader / 4)).put((byte)0).putShort((short)(ipLength + ipLengthDelta))
                .putShort((short)0x1234).putShort((short)fragment).put((byte)64).put((byte)protocol)
                .putShort((short)0).putInt(srcIp).putInt(dstIp);
            for (int i = 0; i < 4 * ipOptions; i++)
            {
                ip.put((byte)1); // NOP
            }
            ip.putShort(10, (short)onesComplement(ip.array(), 0, ipHeader, 0));
            ip.putShort((short)40041).putShort((short)dstPort).putShort((short)(udpLength + udpLengthDelta))
                .putShort((short)0).put(dta);
            if (udpChecksum)
            {
                // Pseudo-header: source, destination, zero, protocol 17, UDP length; then the datagram.
                long sum = 17 + udpLength;
                sum += (srcIp >>> 16) + (srcIp & 0xFFFF) + (dstIp >>> 16) + (dstIp & 0xFFFF);
                int c = onesComplement(ip.array(), ipHeader, udpLength, sum);
                c = 0 == c ? 0xFFFF : c;
                ip.putShort(ipHeader + 6, (short)c);
            }
            f.writeBytes(ip.array());
            while (f.size() < padTo)
            {
                f.write(padByte);
            }
            return f.toByteArray();
        }
    }

    private static int onesComplement(final byte[] b, final int from, final int length, final long initial)
    {
        long sum = initial;
        for (int i = 0; i < length; i += 2)
        {
            sum += ((b[from + i] & 0xFF) << 8) | (i + 1 < length ? b[from + i + 1] & 0xFF : 0);
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }

    /** The DTA part: opcode, (seqnum,) flags, sub-header. */
    private static byte[] dta(final int form, final int opcode, final int seqnum, final int flags, final byte[] sub)
    {
        final ByteBuffer b = ByteBuffer.allocate(form + sub.length);
        b.put((byte)opcode);
        if (3 == form)
        {
            b.put((byte)seqnum);
        }
        return b.put((byte)flags).put(sub).array();
    }

    private static byte[] dta3(final int opcode, final byte[] sub)
    {
        return dta(3, opcode, 0, 0, sub);
    }

    private static byte[] kw(final int n, final int key, final int data)
    {
        return ByteBuffer.allocate(9).put((byte)n).putInt(key).putInt(data).array();
    }

    private static byte[] ki(final int n, final int key, final long counter)
    {
        return ByteBuffer.allocate(13).put((byte)n).putInt(key).putLong(counter).array();
    }

    private static byte[] ap(final int listId, final int data)
    {
        return ByteBuffer.allocate(8).putInt(listId).putInt(data).array();
    }

    private static byte[] pc(final int key, final int hop, final int data)
    {
        return ByteBuffer.allocate(9).putInt(key).put((byte)hop).putInt(data).array();
    }

    private static byte[] hex(final String s)
    {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static int preRoutingDrops(final Harness h)
    {
        return (int)(h.count(EngineCounter.DROP_TRUNCATED) + h.count(EngineCounter.DROP_BAD_LENGTH) +
            h.count(EngineCounter.DROP_UNKNOWN_OPCODE) + h.count(EngineCounter.DROP_BAD_CHECKSUM) +
            h.count(EngineCounter.DROP_NO_ROUTE) + h.count(EngineCounter.DROP_BAD_REDUNDANCY) +
            h.count(EngineCounter.DROP_BAD_HOP));
    }
}
