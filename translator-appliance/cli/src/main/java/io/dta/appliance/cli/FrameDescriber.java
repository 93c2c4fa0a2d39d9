package io.dta.appliance.cli;

import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.CmRtuFlyweight;
import io.dta.codec.DethFlyweight;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Ipv4Address;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.codec.SketchColumnFlyweight;
import org.agrona.DirectBuffer;

import java.math.BigInteger;

/**
 * Renders what {@link FrameDecoder} found in a frame as one readable line or one JSON object. Used by
 * {@code dta decode}; it reads the decoder's flyweights only, so there is exactly one parser in the product.
 */
final class FrameDescriber
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder out = new StringBuilder(512);
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private boolean firstField;

    /**
     * JSON object for the frame the decoder just decoded.
     *
     * @param decoder   the decoder holding the frame.
     * @param index     1-based frame index in the capture.
     * @param timeNanos capture timestamp.
     * @param length    captured length.
     * @return one line of JSON.
     */
    String json(final FrameDecoder decoder, final long index, final long timeNanos, final int length)
    {
        out.setLength(0);
        out.append('{');
        firstField = true;
        number("index", index);
        string("kind", kindName(decoder.kind()));
        raw("time", seconds(timeNanos));
        // The decimal seconds keep nanoseconds only for parsers of exact decimals; most read a double (µs at best).
        number("timeNanos", timeNanos);
        number("length", length);
        switch (decoder.kind())
        {
            case DTA -> dtaJson(decoder);
            case ROCE -> roceJson(decoder);
            case MALFORMED ->
            {
                string("error", decoder.malformedReason().name() + ": " + decoder.malformedReason().description());
                string("reason", decoder.malformedReason().name());
            }
            default -> otherJson(decoder);
        }
        out.append('}');
        return out.toString();
    }

    private void otherJson(final FrameDecoder decoder)
    {
        number("etherType", decoder.etherType());
        if (decoder.ipOffset() >= 0 && 0x0800 == decoder.etherType())
        {
            string("src", Ipv4Address.format(decoder.ipv4().src()));
            string("dst", Ipv4Address.format(decoder.ipv4().dst()));
            number("protocol", decoder.ipv4().protocol());
        }
    }

    private void addressesJson(final FrameDecoder decoder)
    {
        string("src", Ipv4Address.format(decoder.ipv4().src()));
        string("dst", Ipv4Address.format(decoder.ipv4().dst()));
        number("srcPort", decoder.udp().srcPort());
        number("dstPort", decoder.udp().dstPort());
        bool("ipChecksumOk", decoder.ipChecksumValid());
    }

    private void dtaJson(final FrameDecoder decoder)
    {
        addressesJson(decoder);
        final DtaBaseHeaderFlyweight base = decoder.dtaBase();
        final int opcode = decoder.dtaOpcode();
        number("opcode", opcode);
        string("primitive", primitiveName(opcode));
        number("baseHeader", base.length());
        if (base.hasSeqnum())
        {
            number("seqnum", base.seqnum());
        }
        number("flags", base.flags());
        bool("immediate", base.immediate());
        bool("retransmittable", base.hasSeqnum() && base.retransmittable());
        bool("essential", base.hasSeqnum() && base.essential());
        switch (opcode)
        {
            case DtaOpcode.KEY_WRITE ->
            {
                number("redundancy", decoder.keyWrite().redundancy());
                number("key", decoder.keyWrite().key());
                raw("data", unsigned(decoder.buffer(), decoder.keyWrite().dataOffset(),
                    decoder.keyWrite().dataLength()));
            }
            case DtaOpcode.KEY_INCREMENT ->
            {
                number("redundancy", decoder.keyIncrement().redundancy());
                number("key", decoder.keyIncrement().key());
                raw("counter", Long.toUnsignedString(decoder.keyIncrement().counter()));
            }
            case DtaOpcode.APPEND ->
            {
                number("listId", decoder.append().listId());
                number("data", decoder.append().data());
            }
            case DtaOpcode.POSTCARD ->
            {
                number("key", decoder.postcard().key());
                number("hop", decoder.postcard().hop());
                number("data", decoder.postcard().data());
            }
            case DtaOpcode.SKETCH_MERGE ->
            {
                final SketchColumnFlyweight column = decoder.sketchColumn();
                number("sketchId", column.sketchId());
                number("switchId", column.switchId());
                number("epoch", column.epoch());
                number("column", column.column());
                number("rows", column.rows());
                raw("cells", sketchCounters(column, ","));
            }
            default ->
            {
            }
        }
    }

    private void roceJson(final FrameDecoder decoder)
    {
        addressesJson(decoder);
        final int opcode = decoder.roceOpcode();
        number("opcode", opcode);
        string("opcodeName", RoceOpcode.name(opcode));
        number("destQp", decoder.bth().destQp());
        number("psn", decoder.bth().psn());
        bool("ackReq", decoder.bth().ackReq());
        number("pKey", decoder.bth().pKey());
        bool("migReq", decoder.bth().migReq());
        number("padCount", decoder.bth().padCount());
        bool("icrcOk", decoder.icrcValid());
        if (RoceOpcode.hasReth(opcode))
        {
            raw("va", Long.toUnsignedString(decoder.reth().virtualAddress()));
            number("rkey", decoder.reth().rKey());
            number("dmaLength", decoder.reth().dmaLength());
        }
        if (RoceOpcode.hasAtomicEth(opcode))
        {
            raw("va", Long.toUnsignedString(decoder.atomicEth().virtualAddress()));
            number("rkey", decoder.atomicEth().rKey());
            raw("addData", Long.toUnsignedString(decoder.atomicEth().swapAddData()));
            raw("compareData", Long.toUnsignedString(decoder.atomicEth().compareData()));
        }
        if (RoceOpcode.hasAeth(opcode))
        {
            number("aethSyndrome", decoder.aeth().syndrome());
            number("msn", decoder.aeth().msn());
        }
        if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            raw("originalValue", Long.toUnsignedString(decoder.atomicAckEth().originalValue()));
        }
        if (RoceOpcode.hasDeth(opcode))
        {
            number("qKey", decoder.deth().qKey());
            number("srcQp", decoder.deth().srcQp());
        }
        if (isCmMad(decoder))
        {
            cmJson();
        }
        if (RoceOpcode.carriesPayload(opcode))
        {
            string("payload", hex(decoder.buffer(), decoder.payloadOffset(), decoder.payloadLength()));
        }
    }

    private boolean isCmMad(final FrameDecoder decoder)
    {
        if (RoceOpcode.UD_SEND_ONLY != decoder.roceOpcode() || DethFlyweight.GSI_QPN != decoder.bth().destQp() ||
            decoder.payloadLength() < MadHeaderFlyweight.MAD_LENGTH)
        {
            return false;
        }
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        return MadHeaderFlyweight.MGMT_CLASS_CM == mad.mgmtClass();
    }

    private static String cmName(final int attribute)
    {
        return switch (attribute)
        {
            case MadHeaderFlyweight.ATTRIBUTE_REQ -> "REQ";
            case MadHeaderFlyweight.ATTRIBUTE_MRA -> "MRA";
            case MadHeaderFlyweight.ATTRIBUTE_REJ -> "REJ";
            case MadHeaderFlyweight.ATTRIBUTE_REP -> "REP";
            case MadHeaderFlyweight.ATTRIBUTE_RTU -> "RTU";
            case MadHeaderFlyweight.ATTRIBUTE_DREQ -> "DREQ";
            case MadHeaderFlyweight.ATTRIBUTE_DREP -> "DREP";
            default -> String.format("attribute 0x%04x", attribute);
        };
    }

    private void cmText()
    {
        final int attribute = mad.attributeId();
        out.append(" CM ").append(cmName(attribute)).append(String.format(" tid=0x%016x", mad.transactionId()));
        final int body = mad.dataOffset();
        switch (attribute)
        {
            case MadHeaderFlyweight.ATTRIBUTE_REQ ->
            {
                req.wrap(mad.buffer(), body);
                out.append(String.format(" comm=0x%08x service=0x%016x qpn=0x%06x start-psn=0x%06x",
                    req.localCommId(), req.serviceId(), req.localQpn(), req.startingPsn()));
            }
            case MadHeaderFlyweight.ATTRIBUTE_REP ->
            {
                rep.wrap(mad.buffer(), body);
                out.append(String.format(" comm=0x%08x remote-comm=0x%08x qpn=0x%06x start-psn=0x%06x",
                    rep.localCommId(), rep.remoteCommId(), rep.localQpn(), rep.startingPsn()));
            }
            case MadHeaderFlyweight.ATTRIBUTE_RTU ->
            {
                rtu.wrap(mad.buffer(), body);
                out.append(String.format(" comm=0x%08x remote-comm=0x%08x", rtu.localCommId(), rtu.remoteCommId()));
            }
            case MadHeaderFlyweight.ATTRIBUTE_REJ ->
            {
                rej.wrap(mad.buffer(), body);
                out.append(String.format(" comm=0x%08x remote-comm=0x%08x reason=%d (%s)", rej.localCommId(),
                    rej.remoteCommId(), rej.reason(), CmRejFlyweight.reasonName(rej.reason())));
            }
            default ->
            {
            }
        }
    }

    private void cmJson()
    {
        final int attribute = mad.attributeId();
        string("cm", cmName(attribute));
        raw("transactionId", Long.toUnsignedString(mad.transactionId()));
        final int body = mad.dataOffset();
        switch (attribute)
        {
            case MadHeaderFlyweight.ATTRIBUTE_REQ ->
            {
                req.wrap(mad.buffer(), body);
                number("localCommId", req.localCommId());
                raw("serviceId", Long.toUnsignedString(req.serviceId()));
                number("localQpn", req.localQpn());
                number("startingPsn", req.startingPsn());
            }
            case MadHeaderFlyweight.ATTRIBUTE_REP ->
            {
                rep.wrap(mad.buffer(), body);
                number("localCommId", rep.localCommId());
                number("remoteCommId", rep.remoteCommId());
                number("localQpn", rep.localQpn());
                number("startingPsn", rep.startingPsn());
            }
            case MadHeaderFlyweight.ATTRIBUTE_RTU ->
            {
                rtu.wrap(mad.buffer(), body);
                number("localCommId", rtu.localCommId());
                number("remoteCommId", rtu.remoteCommId());
            }
            case MadHeaderFlyweight.ATTRIBUTE_REJ ->
            {
                rej.wrap(mad.buffer(), body);
                number("localCommId", rej.localCommId());
                number("remoteCommId", rej.remoteCommId());
                number("rejectReason", rej.reason());
            }
            default ->
            {
            }
        }
    }

    /**
     * One human-readable line for the frame the decoder just decoded.
     *
     * @param decoder   the decoder holding the frame.
     * @param index     1-based frame index.
     * @param timeNanos capture timestamp.
     * @param length    captured length.
     * @return the line.
     */
    String text(final FrameDecoder decoder, final long index, final long timeNanos, final int length)
    {
        out.setLength(0);
        out.append(String.format("%6d %s %4d  ", index, seconds(timeNanos), length));
        switch (decoder.kind())
        {
            case DTA -> dtaText(decoder);
            case ROCE -> roceText(decoder);
            case MALFORMED -> out.append("MALFORMED ").append(decoder.malformedReason().name()).append(": ")
                .append(decoder.malformedReason().description());
            default ->
            {
                out.append("other     ethertype 0x").append(String.format("%04x", decoder.etherType()));
                if (decoder.ipOffset() >= 0 && 0x0800 == decoder.etherType())
                {
                    out.append(' ').append(Ipv4Address.format(decoder.ipv4().src())).append(" > ")
                        .append(Ipv4Address.format(decoder.ipv4().dst())).append(" proto ")
                        .append(decoder.ipv4().protocol());
                }
            }
        }
        return out.toString();
    }

    private void dtaText(final FrameDecoder decoder)
    {
        final DtaBaseHeaderFlyweight base = decoder.dtaBase();
        final int opcode = decoder.dtaOpcode();
        out.append("DTA  ").append(Ipv4Address.format(decoder.ipv4().src())).append(" > ")
            .append(Ipv4Address.format(decoder.ipv4().dst())).append(' ').append(primitiveName(opcode));
        if (base.hasSeqnum())
        {
            out.append(" seq=").append(base.seqnum());
        }
        out.append(String.format(" flags=0x%02x", base.flags()));
        switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> out.append(" N=").append(decoder.keyWrite().redundancy())
                .append(" key=").append(decoder.keyWrite().key()).append(" data=0x")
                .append(hex(decoder.buffer(), decoder.keyWrite().dataOffset(), decoder.keyWrite().dataLength()));
            case DtaOpcode.KEY_INCREMENT -> out.append(" N=").append(decoder.keyIncrement().redundancy())
                .append(" key=").append(decoder.keyIncrement().key()).append(" counter=")
                .append(Long.toUnsignedString(decoder.keyIncrement().counter()));
            case DtaOpcode.APPEND -> out.append(" list=").append(decoder.append().listId())
                .append(" data=").append(decoder.append().data());
            case DtaOpcode.POSTCARD -> out.append(" key=").append(decoder.postcard().key())
                .append(" hop=").append(decoder.postcard().hop()).append(" data=").append(decoder.postcard().data());
            case DtaOpcode.SKETCH_MERGE ->
            {
                final SketchColumnFlyweight column = decoder.sketchColumn();
                out.append(" sketch=").append(column.sketchId()).append(" switch=").append(column.switchId())
                    .append(" epoch=").append(column.epoch()).append(" column=").append(column.column())
                    .append(" rows=").append(column.rows()).append(" counters=").append(sketchCounters(column, " "));
            }
            default ->
            {
            }
        }
        if (!decoder.ipChecksumValid())
        {
            out.append(" [bad IP checksum]");
        }
    }

    private void roceText(final FrameDecoder decoder)
    {
        final int opcode = decoder.roceOpcode();
        out.append("RoCE ").append(Ipv4Address.format(decoder.ipv4().src())).append(" > ")
            .append(Ipv4Address.format(decoder.ipv4().dst())).append(' ').append(RoceOpcode.name(opcode))
            .append(String.format(" qp=0x%06x psn=0x%06x", decoder.bth().destQp(), decoder.bth().psn()));
        if (decoder.bth().ackReq())
        {
            out.append(" ackreq");
        }
        if (RoceOpcode.hasReth(opcode))
        {
            out.append(String.format(" va=0x%016x rkey=0x%08x len=%d", decoder.reth().virtualAddress(),
                decoder.reth().rKey(), decoder.reth().dmaLength()));
        }
        if (RoceOpcode.hasAtomicEth(opcode))
        {
            out.append(String.format(" va=0x%016x rkey=0x%08x add=%s cmp=%s", decoder.atomicEth().virtualAddress(),
                decoder.atomicEth().rKey(), Long.toUnsignedString(decoder.atomicEth().swapAddData()),
                Long.toUnsignedString(decoder.atomicEth().compareData())));
        }
        if (RoceOpcode.hasAeth(opcode))
        {
            out.append(String.format(" syndrome=0x%02x msn=%d", decoder.aeth().syndrome(), decoder.aeth().msn()));
        }
        if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            out.append(" orig=").append(Long.toUnsignedString(decoder.atomicAckEth().originalValue()));
        }
        if (RoceOpcode.hasDeth(opcode))
        {
            out.append(String.format(" qkey=0x%08x srcqp=0x%06x", decoder.deth().qKey(), decoder.deth().srcQp()));
        }
        if (isCmMad(decoder))
        {
            cmText();
        }
        else if (RoceOpcode.carriesPayload(opcode) && decoder.payloadLength() > 0)
        {
            out.append(" payload=").append(hex(decoder.buffer(), decoder.payloadOffset(),
                Math.min(32, decoder.payloadLength())));
            if (decoder.payloadLength() > 32)
            {
                out.append("...");
            }
        }
        out.append(decoder.icrcValid() ? " icrc=ok" : " icrc=BAD");
        if (!decoder.ipChecksumValid())
        {
            out.append(" [bad IP checksum]");
        }
    }

    static String kindName(final FrameKind kind)
    {
        return switch (kind)
        {
            case DTA -> "dta";
            case ROCE -> "roce";
            case MALFORMED -> "malformed";
            default -> "other";
        };
    }

    static String primitiveName(final int opcode)
    {
        return switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> "keywrite";
            case DtaOpcode.APPEND -> "append";
            case DtaOpcode.KEY_INCREMENT -> "keyincrement";
            case DtaOpcode.POSTCARD -> "postcard";
            case DtaOpcode.SKETCH_MERGE -> "sketch";
            default -> "unknown";
        };
    }

    private static String seconds(final long timeNanos)
    {
        return String.format("%d.%09d", Math.floorDiv(timeNanos, 1_000_000_000L),
            Math.floorMod(timeNanos, 1_000_000_000L));
    }

    private static String unsigned(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new BigInteger(1, bytes).toString();
    }

    static String hex(final DirectBuffer buffer, final int offset, final int length)
    {
        final char[] chars = new char[length * 2];
        for (int i = 0; i < length; i++)
        {
            final int b = buffer.getByte(offset + i) & 0xFF;
            chars[2 * i] = HEX[b >>> 4];
            chars[2 * i + 1] = HEX[b & 0xF];
        }
        return new String(chars);
    }

    private void separator()
    {
        if (!firstField)
        {
            out.append(',');
        }
        firstField = false;
    }

    private static String sketchCounters(final SketchColumnFlyweight column, final String separator)
    {
        // Counters are u32 on the wire (HyperLogLog registers, Count-Min sums) and signed for the Count sketch;
        // shown as the wire's unsigned values, one per row.
        final StringBuilder counters = new StringBuilder("[");
        for (int row = 0; row < column.rows(); row++)
        {
            counters.append(0 == row ? "" : separator).append(Integer.toUnsignedLong(column.counter(row)));
        }
        return counters.append(']').toString();
    }

    private void number(final String name, final long value)
    {
        separator();
        out.append('"').append(name).append("\":").append(value);
    }

    private void raw(final String name, final String value)
    {
        separator();
        out.append('"').append(name).append("\":").append(value);
    }

    private void bool(final String name, final boolean value)
    {
        separator();
        out.append('"').append(name).append("\":").append(value);
    }

    private void string(final String name, final String value)
    {
        separator();
        out.append('"').append(name).append("\":\"");
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if ('"' == c || '\\' == c)
            {
                out.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                out.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                out.append(c);
            }
        }
        out.append('"');
    }
}
