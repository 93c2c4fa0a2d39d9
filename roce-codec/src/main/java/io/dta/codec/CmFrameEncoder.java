package io.dta.codec;

import org.agrona.MutableDirectBuffer;

/**
 * Writes connection management MADs as RoCEv2 frames: UD SEND Only (0x64) to QP1, DETH with the GSI Q_Key and
 * source QP 1, the 256-byte MAD as payload, and a computed ICRC.
 * <p>
 * Use: set the addressing once on {@link #encoder()} (MACs, IPs, TOS, TTL, UDP source port, P_Key) and the
 * packet's PSN per frame; then {@link #begin} a MAD, fill its body through {@link #req()}, {@link #rep()},
 * {@link #rtu()}, {@link #rej()}, {@link #dreq()} or {@link #drep()}, and {@link #finish} the frame. {@code begin} zeroes the MAD first, so every
 * reserved field and unused private data byte is zero. Reusable, no allocation per frame, not thread-safe.
 */
public final class CmFrameEncoder
{
    /** Length of a CM frame on the wire (no FCS): 14 + 20 + 8 + 12 + 8 + 256 + 4. */
    public static final int FRAME_LENGTH = RoceFrameEncoder.ETH_IP_UDP_LENGTH + BthFlyweight.LENGTH +
        DethFlyweight.LENGTH + MadHeaderFlyweight.MAD_LENGTH + Icrc.LENGTH;
    /** Offset of the MAD from the frame start. */
    public static final int MAD_OFFSET = RoceFrameEncoder.ETH_IP_UDP_LENGTH + BthFlyweight.LENGTH +
        DethFlyweight.LENGTH;

    private final RoceFrameEncoder encoder = new RoceFrameEncoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();

    /**
     * An encoder preset for MADs: opcode UD SEND Only, DestQP 1, Q_Key 0x80010000, source QP 1, no AckReq.
     */
    public CmFrameEncoder()
    {
        encoder
            .opcode(RoceOpcode.UD_SEND_ONLY)
            .destQp(DethFlyweight.GSI_QPN)
            .qKey(DethFlyweight.GSI_Q_KEY)
            .srcQp(DethFlyweight.GSI_QPN)
            .ackReq(false)
            .payloadInPlace(MadHeaderFlyweight.MAD_LENGTH);
    }

    /**
     * @return the frame encoder, for addressing and the PSN (keep the opcode, DestQP and payload as preset).
     */
    public RoceFrameEncoder encoder()
    {
        return encoder;
    }

    /**
     * Zeroes the MAD of a frame at {@code frameOffset} and writes its CM Send header; the body flyweights are then
     * wrapped at the MAD data.
     *
     * @param dst               the frame buffer, with room for {@link #FRAME_LENGTH} bytes.
     * @param frameOffset       where the frame starts.
     * @param attributeId       e.g. {@link MadHeaderFlyweight#ATTRIBUTE_REQ}.
     * @param transactionId     the transaction ID (one per connection attempt, echoed by every reply).
     * @param attributeModifier the attribute modifier (0 for plain IBA CM).
     * @return the MAD header.
     */
    public MadHeaderFlyweight begin(
        final MutableDirectBuffer dst,
        final int frameOffset,
        final int attributeId,
        final long transactionId,
        final long attributeModifier)
    {
        final int madOffset = frameOffset + MAD_OFFSET;
        dst.setMemory(madOffset, MadHeaderFlyweight.MAD_LENGTH, (byte)0);
        mad.wrap(dst, madOffset).cmSend(attributeId, transactionId, attributeModifier);
        final int body = mad.dataOffset();
        req.wrap(dst, body);
        rep.wrap(dst, body);
        rtu.wrap(dst, body);
        rej.wrap(dst, body);
        dreq.wrap(dst, body);
        drep.wrap(dst, body);
        return mad;
    }

    /**
     * @return the REQ body of the MAD begun last.
     */
    public CmReqFlyweight req()
    {
        return req;
    }

    /**
     * @return the REP body of the MAD begun last.
     */
    public CmRepFlyweight rep()
    {
        return rep;
    }

    /**
     * @return the RTU body of the MAD begun last.
     */
    public CmRtuFlyweight rtu()
    {
        return rtu;
    }

    /**
     * @return the REJ body of the MAD begun last.
     */
    public CmRejFlyweight rej()
    {
        return rej;
    }

    /**
     * @return the DREQ body of the MAD begun last.
     */
    public CmDreqFlyweight dreq()
    {
        return dreq;
    }

    /**
     * @return the DREP body of the MAD begun last.
     */
    public CmDrepFlyweight drep()
    {
        return drep;
    }

    /**
     * Writes the headers around the MAD and the ICRC.
     *
     * @param dst         the frame buffer.
     * @param frameOffset where the frame starts (as given to {@link #begin}).
     * @return the frame length, {@link #FRAME_LENGTH}.
     */
    public int finish(final MutableDirectBuffer dst, final int frameOffset)
    {
        return encoder.encode(dst, frameOffset);
    }
}
