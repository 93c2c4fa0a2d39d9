package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Seeded property tests: every setter followed by every getter reads back what was written, fields do not
 * overlap, and bytes outside the header are untouched.
 */
class FlyweightPropertyTest
{
    private static final long SEED = 0x5EEDC0DEL;
    private static final int CASES = 5_000;
    private static final int BUFFER_LENGTH = 128;

    private static UnsafeBuffer randomBuffer(final SplittableRandom random)
    {
        final byte[] bytes = new byte[BUFFER_LENGTH];
        random.nextBytes(bytes);
        return new UnsafeBuffer(bytes);
    }

    private static void assertOutsideUntouched(
        final UnsafeBuffer before, final UnsafeBuffer after, final int offset, final int length, final String msg)
    {
        for (int i = 0; i < BUFFER_LENGTH; i++)
        {
            if (i < offset || i >= offset + length)
            {
                assertEquals(before.getByte(i), after.getByte(i), msg + " byte " + i);
            }
        }
    }

    private static UnsafeBuffer copy(final UnsafeBuffer buffer)
    {
        final byte[] bytes = new byte[BUFFER_LENGTH];
        buffer.getBytes(0, bytes);
        return new UnsafeBuffer(bytes);
    }

    @Test
    void shouldRoundTripEthernetWithZeroOneOrTwoTags()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final EthernetFlyweight eth = new EthernetFlyweight();
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + SEED + " case " + i;
            final UnsafeBuffer buffer = randomBuffer(random);
            final UnsafeBuffer before = copy(buffer);
            final int offset = random.nextInt(40);
            final long dst = random.nextLong() & MacAddress.MASK;
            final long src = random.nextLong() & MacAddress.MASK;
            final int tags = random.nextInt(3);
            final int[] tpid = new int[tags];
            final int[] pcp = new int[tags];
            final boolean[] dei = new boolean[tags];
            final int[] vid = new int[tags];
            int inner = random.nextInt(0x10000);
            while (EthernetFlyweight.isVlanTpid(inner))
            {
                inner = random.nextInt(0x10000);
            }
            eth.wrap(buffer, offset).dstMac(dst).srcMac(src);
            for (int t = 0; t < tags; t++)
            {
                tpid[t] = random.nextBoolean() ? EthernetFlyweight.TPID_8021Q : EthernetFlyweight.TPID_8021AD;
                pcp[t] = random.nextInt(8);
                dei[t] = random.nextBoolean();
                vid[t] = random.nextInt(4096);
                eth.vlanTag(t, tpid[t], pcp[t], dei[t], vid[t]);
            }
            if (tags == 0)
            {
                eth.etherType(inner);
            }
            else
            {
                // The tag count is read from the TPID chain: terminate it explicitly before writing the type.
                buffer.putShort(offset + 12 + 4 * tags, (short)0, java.nio.ByteOrder.BIG_ENDIAN);
                eth.innerEtherType(inner);
            }

            assertEquals(dst, eth.dstMac(), msg);
            assertEquals(src, eth.srcMac(), msg);
            assertEquals(tags, eth.vlanTagCount(), msg);
            assertEquals(14 + 4 * tags, eth.headerLength(), msg);
            assertEquals(inner, eth.innerEtherType(), msg);
            for (int t = 0; t < tags; t++)
            {
                assertEquals(tpid[t], eth.vlanTpid(t), msg);
                assertEquals(pcp[t], eth.vlanPcp(t), msg);
                assertEquals(dei[t], eth.vlanDei(t), msg);
                assertEquals(vid[t], eth.vlanId(t), msg);
            }
            assertOutsideUntouched(before, buffer, offset, 14 + 4 * tags, msg);
        }
    }

    @Test
    void shouldRoundTripIpv4AndUdp()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final Ipv4Flyweight ip = new Ipv4Flyweight();
        final UdpFlyweight udp = new UdpFlyweight();
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 1) + " case " + i;
            final UnsafeBuffer buffer = randomBuffer(random);
            final UnsafeBuffer before = copy(buffer);
            final int offset = random.nextInt(40);
            final int ihl = 5 + random.nextInt(3);
            final int tos = random.nextInt(256);
            final int total = random.nextInt(0x10000);
            final int id = random.nextInt(0x10000);
            final boolean df = random.nextBoolean();
            final boolean mf = random.nextBoolean();
            final int frag = random.nextInt(0x2000);
            final int ttl = random.nextInt(256);
            final int proto = random.nextInt(256);
            final int src = random.nextInt();
            final int dst = random.nextInt();
            ip.wrap(buffer, offset).versionAndIhl(ihl).tos(tos).totalLength(total).identification(id)
                .flagsAndFragmentOffset(0).dontFragment(df).moreFragments(mf).fragmentOffset(frag).ttl(ttl)
                .protocol(proto).src(src).dst(dst).updateChecksum();
            assertEquals(4, ip.version(), msg);
            assertEquals(ihl, ip.ihl(), msg);
            assertEquals(ihl * 4, ip.headerLength(), msg);
            assertEquals(tos, ip.tos(), msg);
            assertEquals(tos >>> 2, ip.dscp(), msg);
            assertEquals(tos & 3, ip.ecn(), msg);
            assertEquals(total, ip.totalLength(), msg);
            assertEquals(id, ip.identification(), msg);
            assertEquals(df, ip.dontFragment(), msg);
            assertEquals(mf, ip.moreFragments(), msg);
            assertEquals(frag, ip.fragmentOffset(), msg);
            assertEquals(mf || frag != 0, ip.isFragment(), msg);
            assertEquals(ttl, ip.ttl(), msg);
            assertEquals(proto, ip.protocol(), msg);
            assertEquals(src, ip.src(), msg);
            assertEquals(dst, ip.dst(), msg);
            assertEquals(true, ip.isChecksumValid(), msg);
            assertEquals(ip.headerChecksum(), ip.computeChecksum(), msg);
            assertEquals(referenceIpChecksum(buffer, offset, ihl * 4), ip.headerChecksum(), msg);
            final int flipped = offset + random.nextInt(ihl * 4);
            buffer.putByte(flipped, (byte)(buffer.getByte(flipped) ^ (1 << random.nextInt(8))));
            assertEquals(false, ip.isChecksumValid(), msg);
            assertOutsideUntouched(before, buffer, offset, ihl * 4, msg);

            final int udpOffset = offset + ihl * 4;
            final int sport = random.nextInt(0x10000);
            final int dport = random.nextInt(0x10000);
            final int len = random.nextInt(0x10000);
            final int csum = random.nextInt(0x10000);
            udp.wrap(buffer, udpOffset).srcPort(sport).dstPort(dport).length(len).checksum(csum);
            assertEquals(sport, udp.srcPort(), msg);
            assertEquals(dport, udp.dstPort(), msg);
            assertEquals(len, udp.length(), msg);
            assertEquals(csum, udp.checksum(), msg);
        }
    }

    @Test
    void shouldComputeAndVerifyUdpChecksum()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 2);
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 2) + " case " + i;
            final UnsafeBuffer buffer = randomBuffer(random);
            final int udpLength = 8 + random.nextInt(BUFFER_LENGTH - 20 - 8 - 1);
            new Ipv4Flyweight().wrap(buffer, 0).versionAndIhl(5);
            final UdpFlyweight udp = new UdpFlyweight().wrap(buffer, 20).length(udpLength);
            final int checksum = UdpFlyweight.computeIpv4Checksum(buffer, 0, 20, udpLength);
            assertEquals(referenceUdpChecksum(buffer, 0, 20, udpLength), checksum, msg);
            udp.checksum(checksum);
            assertEquals(true, UdpFlyweight.isIpv4ChecksumValid(buffer, 0, 20, udpLength), msg);
            udp.checksum(checksum ^ (1 + random.nextInt(0xFFFE)));
            final boolean zero = udp.checksum() == 0;
            assertEquals(zero, UdpFlyweight.isIpv4ChecksumValid(buffer, 0, 20, udpLength), msg);
        }
    }

    @Test
    void shouldRoundTripDtaHeaders()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 3);
        final DtaBaseHeaderFlyweight base = new DtaBaseHeaderFlyweight();
        final KeyWriteFlyweight keyWrite = new KeyWriteFlyweight();
        final KeyIncrementFlyweight keyIncrement = new KeyIncrementFlyweight();
        final AppendFlyweight append = new AppendFlyweight();
        final PostcardFlyweight postcard = new PostcardFlyweight();
        final DtaNackFlyweight nack = new DtaNackFlyweight();
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 3) + " case " + i;
            final UnsafeBuffer buffer = randomBuffer(random);
            final UnsafeBuffer before = copy(buffer);
            final int offset = random.nextInt(60);
            final boolean three = random.nextBoolean();
            final int opcode = random.nextInt(256);
            final int seq = random.nextInt(256);
            final boolean imm = random.nextBoolean();
            final boolean retx = random.nextBoolean();
            final boolean ess = random.nextBoolean();
            base.wrap(buffer, offset, three ? DtaBaseHeaderForm.THREE : DtaBaseHeaderForm.TWO)
                .opcode(opcode).seqnum(seq).flags(0).immediate(imm).retransmittable(retx).essential(ess);
            assertEquals(opcode, base.opcode(), msg);
            assertEquals(three ? seq : 0, base.seqnum(), msg);
            assertEquals(imm, base.immediate(), msg);
            assertEquals(three && retx, base.retransmittable(), msg);
            assertEquals(three && ess, base.essential(), msg);
            assertEquals((imm ? 0x80 : 0) | (retx ? 0x40 : 0) | (ess ? 0x20 : 0), base.flags(), msg);
            assertEquals(three ? 3 : 2, base.length(), msg);
            assertOutsideUntouched(before, buffer, offset, base.length(), msg);

            final int sub = offset + base.length();
            final int n = random.nextInt(256);
            final long key = random.nextLong() & 0xFFFF_FFFFL;
            final long data = random.nextLong() & 0xFFFF_FFFFL;
            final long counter = random.nextLong();
            final int dataLength = 4 * (1 + random.nextInt(7));
            keyWrite.wrap(buffer, sub, dataLength).redundancy(n).key(key);
            for (int w = 0; w < dataLength / 4; w++)
            {
                keyWrite.dataWord(w, data + w & 0xFFFF_FFFFL);
            }
            assertEquals(n, keyWrite.redundancy(), msg);
            assertEquals(key, keyWrite.key(), msg);
            assertEquals(data, keyWrite.data(), msg);
            for (int w = 0; w < dataLength / 4; w++)
            {
                assertEquals(data + w & 0xFFFF_FFFFL, keyWrite.dataWord(w), msg);
            }
            assertEquals(5 + dataLength, keyWrite.length(), msg);
            assertEquals(sub + 5, keyWrite.dataOffset(), msg);

            keyIncrement.wrap(buffer, sub).redundancy(n).key(key).counter(counter);
            assertEquals(n, keyIncrement.redundancy(), msg);
            assertEquals(key, keyIncrement.key(), msg);
            assertEquals(counter, keyIncrement.counter(), msg);

            append.wrap(buffer, sub).listId(key).data(data);
            assertEquals(key, append.listId(), msg);
            assertEquals(data, append.data(), msg);

            postcard.wrap(buffer, sub).key(key).hop(n).data(data);
            assertEquals(key, postcard.key(), msg);
            assertEquals(n, postcard.hop(), msg);
            assertEquals(data, postcard.data(), msg);

            nack.wrap(buffer, sub).seqnum(n).nack(imm);
            assertEquals(n, nack.seqnum(), msg);
            assertEquals(imm, nack.nack(), msg);
        }
    }

    @Test
    void shouldRoundTripRoceHeaders()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 4);
        final BthFlyweight bth = new BthFlyweight();
        final RethFlyweight reth = new RethFlyweight();
        final AtomicEthFlyweight atomic = new AtomicEthFlyweight();
        final AethFlyweight aeth = new AethFlyweight();
        final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 4) + " case " + i;
            final UnsafeBuffer buffer = randomBuffer(random);
            final UnsafeBuffer before = copy(buffer);
            final int offset = random.nextInt(60);
            final int opcode = random.nextInt(256);
            final boolean se = random.nextBoolean();
            final boolean m = random.nextBoolean();
            final int pad = random.nextInt(4);
            final int tver = random.nextInt(16);
            final int pkey = random.nextInt(0x10000);
            final boolean fecn = random.nextBoolean();
            final boolean becn = random.nextBoolean();
            final int qp = random.nextInt(1 << 24);
            final boolean ackReq = random.nextBoolean();
            final int psn = random.nextInt(1 << 24);
            bth.wrap(buffer, offset).opcode(opcode).solicitedEvent(se).migReq(m).padCount(pad).tver(tver)
                .pKey(pkey).fecn(fecn).becn(becn).destQp(qp).ackReq(ackReq).psn(psn);
            assertEquals(opcode, bth.opcode(), msg);
            assertEquals(se, bth.solicitedEvent(), msg);
            assertEquals(m, bth.migReq(), msg);
            assertEquals(pad, bth.padCount(), msg);
            assertEquals(tver, bth.tver(), msg);
            assertEquals(pkey, bth.pKey(), msg);
            assertEquals(fecn, bth.fecn(), msg);
            assertEquals(becn, bth.becn(), msg);
            assertEquals(qp, bth.destQp(), msg);
            assertEquals(ackReq, bth.ackReq(), msg);
            assertEquals(psn, bth.psn(), msg);
            assertOutsideUntouched(before, buffer, offset, BthFlyweight.LENGTH, msg);

            final int ext = offset + BthFlyweight.LENGTH;
            final long va = random.nextLong();
            final long rkey = random.nextLong() & 0xFFFF_FFFFL;
            final long len = random.nextLong() & 0xFFFF_FFFFL;
            final long a = random.nextLong();
            final long b = random.nextLong();
            reth.wrap(buffer, ext).virtualAddress(va).rKey(rkey).dmaLength(len);
            assertEquals(va, reth.virtualAddress(), msg);
            assertEquals(rkey, reth.rKey(), msg);
            assertEquals(len, reth.dmaLength(), msg);
            atomic.wrap(buffer, ext).virtualAddress(va).rKey(rkey).swapAddData(a).compareData(b);
            assertEquals(va, atomic.virtualAddress(), msg);
            assertEquals(rkey, atomic.rKey(), msg);
            assertEquals(a, atomic.swapAddData(), msg);
            assertEquals(b, atomic.compareData(), msg);
            final int syndrome = random.nextInt(256);
            final int msn = random.nextInt(1 << 24);
            aeth.wrap(buffer, ext).syndrome(syndrome).msn(msn);
            atomicAck.wrap(buffer, ext + 4).originalValue(a);
            assertEquals(syndrome, aeth.syndrome(), msg);
            assertEquals(msn, aeth.msn(), msg);
            assertEquals(a, atomicAck.originalValue(), msg);
            final int type = (syndrome >> 5) & 3;
            assertEquals(type == 0, aeth.isAck(), msg);
            assertEquals(type == 1, aeth.isRnrNak(), msg);
            assertEquals(type == 3, aeth.isNak(), msg);
            assertEquals(syndrome & 0x1F, aeth.nakCode(), msg);
            assertEquals(syndrome & 0x1F, aeth.creditCode(), msg);
            // The BTH must survive writes to the headers after it.
            assertEquals(psn, bth.psn(), msg);
            assertEquals(qp, bth.destQp(), msg);
        }
    }

    static int referenceIpChecksum(final UnsafeBuffer buffer, final int offset, final int length)
    {
        int sum = 0;
        for (int i = 0; i < length; i += 2)
        {
            if (i != 10)
            {
                sum += ((buffer.getByte(offset + i) & 0xFF) << 8) | (buffer.getByte(offset + i + 1) & 0xFF);
            }
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    static int referenceUdpChecksum(final UnsafeBuffer buffer, final int ip, final int udp, final int length)
    {
        final byte[] pseudo = new byte[12 + length + 1];
        buffer.getBytes(ip + 12, pseudo, 0, 8);
        pseudo[9] = 17;
        pseudo[10] = (byte)(length >>> 8);
        pseudo[11] = (byte)length;
        buffer.getBytes(udp, pseudo, 12, length);
        pseudo[12 + 6] = 0;
        pseudo[12 + 7] = 0;
        long sum = 0;
        for (int i = 0; i + 1 < pseudo.length; i += 2)
        {
            sum += ((pseudo[i] & 0xFF) << 8) | (pseudo[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        final int result = (int)(~sum & 0xFFFF);
        return result == 0 ? 0xFFFF : result;
    }
}
