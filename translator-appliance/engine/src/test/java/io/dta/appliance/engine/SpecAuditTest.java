package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rules of translation.md that no other engine test could fail on, each checked from the text of the
 * specification with plain byte arithmetic (no codec flyweight, no frame encoder).
 */
class SpecAuditTest
{
    private static final class Harness
    {
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine engine;
        long now = 1_000_000;

        Harness(final String yaml)
        {
            engine = new TranslatorEngine(ConfigLoader.load(yaml), out);
        }

        void feed(final byte[] frame)
        {
            engine.pollNow(now);
            engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
        }

        long count(final EngineCounter counter)
        {
            return engine.counters().get(counter);
        }
    }

    /**
     * §4: every header field of a Key-Write WRITE Only, with non-default DSCP, ECN, TTL and P_Key, and the ICRC
     * computed as rocev2-reference.md §2 defines it (CRC32 over eight 0xFF bytes and the frame from the IPv4 header
     * on, with TOS, TTL, IPv4 checksum, UDP checksum and the BTH's FECN/BECN/reserved byte masked to 0xFF, sent LE).
     */
    @Test
    void shouldEmitEveryHeaderFieldOfAWriteAsSection4Says()
    {
        final String yaml = new Cfg().yaml()
            .replace("dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff", "dscp: 46, ecn: 1, ttl: 5, pKey: 0x7ffe");
        final Harness h = new Harness(yaml);
        final int key = 0xA1B2C3D4;
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(1, key, new byte[] {9, 8, 7, 6})));
        h.engine.flush(h.now);
        final List<FrameCollector.Frame> frames = h.out.drain();
        assertEquals(1, frames.size());

        final ByteBuffer e = ByteBuffer.allocate(14 + 20 + 8 + 12 + 16 + 8 + 4).order(ByteOrder.BIG_ENDIAN);
        e.put(new byte[] {2, 0, 10, 0, 0, 0x33}).put(new byte[] {2, 0, 10, 0, 0, 0x65}).putShort((short)0x0800);
        e.put((byte)0x45).put((byte)((46 << 2) | 1)).putShort((short)(e.capacity() - 14)).putShort((short)0x0100)
            .putShort((short)0x4000).put((byte)5).put((byte)17).putShort((short)0).putInt(APPLIANCE_IP)
            .putInt(COLLECTOR_A);
        e.putShort(24, (short)ipChecksum(e.array(), 14));
        e.putShort((short)(0xC000 | (KW_QPN & 0x3FFF))).putShort((short)4791).putShort((short)(e.capacity() - 34))
            .putShort((short)0);
        // BTH: WRITE Only, SE 0 M 1 PadCnt 0 TVer 0, P_Key, reserved, DestQP, AckReq (last before idle) and PSN.
        e.put((byte)0x0A).put((byte)0x40).putShort((short)0x7ffe).put((byte)0).put((byte)0).putShort((short)KW_REMOTE)
            .putInt(0x8000_0000 | 0x100);
        e.putLong(KW_BASE + (slotHash(key, 0) & 255) * 8).putInt(0x1234).putInt(8);
        e.put(le32((int)checksum(key))).put(new byte[] {9, 8, 7, 6});
        TestFrames.putIcrc(e);

        assertEquals(HexFormat.of().formatHex(e.array()), HexFormat.of().formatHex(frames.get(0).bytes()));
    }

    /**
     * §1: two VLAN tags (802.1ad outer, 802.1Q inner) and IPv4 options are skipped; the immediate flag is carried
     * and counted; a fragment is dropped and counted; the UDP checksum is only verified when configured.
     */
    @Test
    void shouldTakeTaggedReportsWithIpOptionsAndDropFragmentsAndCheckChecksumsOnlyWhenAsked()
    {
        final byte[] plain = report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x80,
            keyWrite(1, 42, new byte[] {1, 2, 3, 4}));
        final byte[] tagged = tagAndAddOptions(plain);

        final Harness h = new Harness(new Cfg().yaml());
        h.feed(tagged);
        h.engine.flush(h.now);
        final List<Request> frames = h.out.drainRequests();
        assertEquals(1, frames.size());
        assertEquals(KW_BASE + (slotHash(42, 0) & 255) * 8, frames.get(0).va());
        assertEquals(1, h.count(EngineCounter.IMMEDIATE_REPORTS));
        assertEquals(1, h.count(EngineCounter.REPORTS_TRANSLATED));

        final byte[] fragment = plain.clone();
        fragment[20] = 0x20; // MF
        fragment[21] = 0;
        fixIpChecksum(fragment, 14);
        h.feed(fragment);
        assertEquals(1, h.count(EngineCounter.DROP_FRAGMENTED));

        final byte[] badUdpChecksum = plain.clone();
        badUdpChecksum[40] = 0x12;
        badUdpChecksum[41] = 0x34;
        h.feed(badUdpChecksum);
        assertEquals(2, h.count(EngineCounter.REPORTS_TRANSLATED), "not verified by default (§1)");

        final Harness verifying = new Harness(new Cfg().yaml()
            .replace("reports: {udpPort: 40040,", "reports: {udpPort: 40040, verifyChecksums: true,"));
        verifying.feed(badUdpChecksum);
        assertEquals(1, verifying.count(EngineCounter.DROP_BAD_CHECKSUM));
        assertEquals(0, verifying.count(EngineCounter.REPORTS_TRANSLATED));
        verifying.feed(plain); // UDP checksum 0: none was computed, nothing to verify
        assertEquals(1, verifying.count(EngineCounter.REPORTS_TRANSLATED));
    }

    /**
     * §6: essential reports wait in a bounded queue of the configured size; only overflow drops, counted.
     */
    @Test
    void shouldDropEssentialReportsOnlyWhenTheConfiguredBacklogOverflows()
    {
        final Cfg cfg = new Cfg();
        cfg.backlog = 3;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(essentialKw(0));
        h.feed(essentialKw(1));
        h.feed(essentialKw(2));
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(0, h.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "each report is one operation here");
        h.feed(essentialKw(3));
        h.feed(essentialKw(4));
        assertEquals(2, h.count(EngineCounter.DROP_BACKLOG_FULL), "3 unacknowledged essential writes fill it");
        assertEquals(2, h.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "each report is one operation here");
        assertEquals(List.of(0x100, 0x101, 0x102), h.settle().stream().map(Request::psn).toList());
        h.feed(ack(KW_QPN, 0x102));
        assertEquals(0, h.sender(KW_QPN).essentialBacklog());
        h.feed(essentialKw(5));
        assertEquals(2, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(2, h.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "each report is one operation here");
        assertEquals(List.of(0x103), h.settle().stream().map(Request::psn).toList());
    }

    /**
     * §7: the NACK is a UDP datagram to the reporter, port 40044, carrying the last in-order seqnum and the NACK
     * bit; every byte of it.
     */
    @Test
    void shouldSendTheReporterNackByteForByte()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final byte[] sub = keyWrite(1, 1, new byte[4]);
        h.feed(report(REPORTER_2, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 255, 0x40, sub));
        h.feed(report(REPORTER_2, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 2, 0x40, sub));
        assertEquals(1, h.count(EngineCounter.REPORTS_TRANSLATED), "the gap report is not translated");
        final byte[] nack = h.out.drain().stream().map(FrameCollector.Frame::bytes)
            .filter(f -> f.length == 60).findFirst().orElseThrow();

        final ByteBuffer e = ByteBuffer.allocate(60).order(ByteOrder.BIG_ENDIAN);
        e.put(new byte[] {2, 0, 10, 1, 0, 1}).put(new byte[] {2, 0, 10, 0, 0, 0x65}).putShort((short)0x0800);
        e.put((byte)0x45).put((byte)0).putShort((short)30).putShort((short)0).putShort((short)0x4000).put((byte)64)
            .put((byte)17).putShort((short)0).putInt(COLLECTOR_A).putInt(REPORTER_2);
        e.putShort(24, (short)ipChecksum(e.array(), 14));
        e.putShort((short)40040).putShort((short)40044).putShort((short)10).putShort((short)0);
        e.put((byte)255).put((byte)0x80);
        assertEquals(HexFormat.of().formatHex(e.array()), HexFormat.of().formatHex(nack));
    }

    /**
     * §3 Append (sequenced layout): a batch refused during a grace period consumes no sequence number, so the
     * query side sees no hole it would take for a lapped or lost batch.
     */
    @Test
    void shouldNotConsumeASequenceNumberForABatchRefusedInGrace()
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = 1;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(report(DtaOpcode.APPEND, append(1, 0x11)));
        h.feed(report(DtaOpcode.APPEND, append(1, 0x22)));
        final List<Request> first = h.settle();
        assertEquals(2, first.size());
        h.feed(nak(L1_QPN, 0x60, 0x101));
        h.feed(report(DtaOpcode.APPEND, append(1, 0x33)));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        h.advance(2_000_000);
        h.feed(report(DtaOpcode.APPEND, append(1, 0x44)));
        final List<Request> after = h.settle().stream().filter(r -> r.destQp() == L1_REMOTE).toList();
        assertEquals(1, after.size());
        assertEquals(0x101, after.get(0).psn());
        final ByteBuffer record = ByteBuffer.wrap(after.get(0).payload()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x44, record.getInt(0));
        assertEquals(1, record.getInt(4), "count");
        assertEquals(3, record.getInt(8), "sequence 3: 2 was the lost WRITE at PSN 0x101, the refused batch took none");
    }

    private static byte[] essentialKw(final int key)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20, keyWrite(1, key, new byte[4]));
    }

    private static byte[] tagAndAddOptions(final byte[] plain)
    {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(plain, 0, 12);
        b.writeBytes(new byte[] {(byte)0x88, (byte)0xA8, 0x00, 0x64, (byte)0x81, 0x00, 0x20, 0x07});
        b.write(plain, 12, 2);
        final int ipLength = ((plain[16] & 0xFF) << 8 | (plain[17] & 0xFF)) + 4;
        final byte[] ip = new byte[24];
        System.arraycopy(plain, 14, ip, 0, 20);
        ip[0] = 0x46;
        ip[2] = (byte)(ipLength >> 8);
        ip[3] = (byte)ipLength;
        ip[20] = 1; // NOP options
        ip[21] = 1;
        ip[22] = 1;
        ip[23] = 0; // end of options
        ip[10] = 0;
        ip[11] = 0;
        final int sum = optionsChecksum(ip);
        ip[10] = (byte)(sum >> 8);
        ip[11] = (byte)sum;
        b.writeBytes(ip);
        b.write(plain, 34, ipLength - 24);
        return b.toByteArray();
    }

    private static int optionsChecksum(final byte[] header)
    {
        int sum = 0;
        for (int i = 0; i < header.length; i += 2)
        {
            sum += ((header[i] & 0xFF) << 8) | (header[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    private static void fixIpChecksum(final byte[] frame, final int ip)
    {
        frame[ip + 10] = 0;
        frame[ip + 11] = 0;
        final int sum = ipChecksum(frame, ip);
        frame[ip + 10] = (byte)(sum >> 8);
        frame[ip + 11] = (byte)sum;
    }
}
