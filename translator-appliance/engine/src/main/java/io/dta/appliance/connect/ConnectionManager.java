package io.dta.appliance.connect;

import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.FrameSink;
import io.dta.codec.AethFlyweight;
import io.dta.codec.CmDrepFlyweight;
import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.Psn;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConnectionConfig;
import io.dta.config.KeyIncrementConfig;
import io.dta.config.RegionConfig;
import io.dta.config.TranslatorConfig;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The requester (active) side of connection set-up (translation.md §8) for every negotiated region: the RDMA-CM
 * exchange the reference's {@code init_rdma_connection.py} performed (dta-reference.md §4), done correctly.
 * <ol>
 *     <li>REQ to QP1 of the collector: RDMA-CM TCP service ID of the region's {@code servicePort}, the region's
 *     {@code localQpn}, the starting PSN the appliance will use (the region's {@code startPsn}), RC, and the
 *     timing of the {@code connection} section. Unique communication and transaction IDs per region.</li>
 *     <li>REP: matched by transaction ID and the echoed communication ID (never by arrival order), from the
 *     collector's address, with a valid QPN. The RTU follows; a duplicate REP (the collector's RTU timer) gets the
 *     RTU again. A REJ fails the region with its reason. Its responder resources bound the Key-Increment region's
 *     outstanding atomics: fewer than the REQ asked for (at least 1) is accepted, and the region runs with the grant
 *     ({@link RegionConnection#atomicsLimit()}, one line logged, counted); 0 fails the region and is answered with a
 *     REJ (insufficient responder resources).</li>
 *     <li>The collector's metadata SEND (RC SEND Only to the region's local QPN) must carry the REP's starting PSN
 *     (anything else is dropped and counted); it is acknowledged with an RC ACK carrying that PSN and MSN 1, and
 *     duplicates are acknowledged again, also after connection. Its 16 bytes {address u64 LE, length u32 LE, key
 *     u32 LE} are validated: the length must cover the configured {@code length}, the address must be 8-byte
 *     aligned and the region must not wrap the address space.</li>
 * </ol>
 * Timers: an unanswered REQ is re-sent after {@code 4.096 µs × 2^cmResponseTimeout}, at most {@code maxCmRetries}
 * times; after the RTU, the manager waits as long as the collector may keep trying (its REP re-sends and its SEND
 * retries). Then the region fails. Each region ends {@link RegionConnection.State#CONNECTED} or
 * {@link RegionConnection.State#FAILED} with a message; {@link #connectedConfig()} gives the configuration the
 * engine runs with, whose regions start at the PSN advertised in the REQ (the reference started at the REP's).
 * <p>
 * Disconnection (IB CM DREQ/DREP): {@link #disconnect(long)} sends a DREQ for every connected region, re-sent like
 * a REQ; the matching DREP (or the last timeout) leaves it {@link RegionConnection.State#DISCONNECTED}; an owner
 * waits with {@link #disconnectDone()} and {@link #disconnectTimeoutNanos()}. A DREQ from the collector for a
 * connected region is answered with a DREP and marks the region disconnected by the collector, for the
 * {@link Reconnector} to stop its QP and connect it again.
 * <p>
 * Same style as the engine: single-threaded, explicit clock, frames out through a {@link FrameSink}, frames in
 * through {@link #onFrame}, timers through {@link #poll(long)}; independent of pcap and of the demo.
 */
public final class ConnectionManager
{
    /** Length of the metadata SEND's payload. */
    public static final int METADATA_LENGTH = 16;
    /** MSN of the ACK of the metadata SEND: the first message the appliance's QP completes. */
    public static final int METADATA_MSN = 1;

    private static final int QPN_MIN = 2;
    private static final int QPN_MAX = 0xFF_FFFE;
    private static final int ACK_FRAME_LENGTH = 62;

    private final ApplianceConfig config;
    private final TranslatorConfig translator;
    private final ConnectionConfig timing;
    private final FrameSink sink;
    private final RegionConnection[] connections;
    private final List<RegionConnection> connectionList;
    private final long[] counters = new long[ConnectionCounter.values().length];
    private final FrameDecoder decoder = new FrameDecoder();
    private final CmFrameEncoder cm = new CmFrameEncoder();
    private final RoceFrameEncoder ack = new RoceFrameEncoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();
    private final RdmaCmHeaderFlyweight cma = new RdmaCmHeaderFlyweight();
    private final long cmTimeoutNanos;
    private final long sendWaitNanos;
    private final SplittableRandom random;
    private int madPsn;

    /**
     * @param config the configuration; its negotiated regions are connected, static ones left alone.
     * @param sink   where REQ, RTU and ACK frames go.
     * @param seed   seed of the communication IDs, transaction IDs and MAD PSNs (unique per run in production:
     *               e.g. the clock; fixed in tests).
     */
    public ConnectionManager(final ApplianceConfig config, final FrameSink sink, final long seed)
    {
        this.config = config;
        this.translator = config.translator();
        this.timing = config.connection();
        this.sink = sink;
        random = new SplittableRandom(seed);
        madPsn = random.nextInt(1 << 24);
        final List<RegionConnection> list = new ArrayList<>();
        for (final CollectorConfig collector : config.collectors())
        {
            for (final RegionConfig region : collector.regions())
            {
                if (region.negotiated())
                {
                    list.add(new RegionConnection(collector, region, 1 + random.nextLong(0xFFFF_FFFEL),
                        random.nextLong()));
                }
            }
        }
        this.connections = list.toArray(new RegionConnection[0]);
        this.connectionList = Collections.unmodifiableList(list);
        this.cmTimeoutNanos = timing.cmResponseTimeoutNanos();
        // The collector re-sends its REP (for a lost RTU) and then its SEND (for a lost ACK) for this long at most.
        this.sendWaitNanos = (timing.maxCmRetries() + 1L) * cmTimeoutNanos +
            (timing.retryCount() + 1L) * timing.localAckTimeoutNanos();

        final int tos = (translator.dscp() << 2) | translator.ecn();
        cm.encoder()
            .srcMac(translator.mac())
            .srcIp(translator.ip())
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos(tos)
            .ttl(translator.ttl())
            .identification(0)
            .migReq(true)
            .pKey(translator.pKey());
        ack
            .srcMac(translator.mac())
            .srcIp(translator.ip())
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos(tos)
            .ttl(translator.ttl())
            .identification(0)
            .migReq(true)
            .pKey(translator.pKey())
            .opcode(RoceOpcode.RC_ACKNOWLEDGE)
            .ackReq(false)
            .syndrome(AethFlyweight.CREDIT_INVALID)
            .msn(METADATA_MSN)
            .noPayload();
    }

    /**
     * Sends the REQ of every negotiated region not started yet.
     *
     * @param nowNanos the current time.
     */
    public void start(final long nowNanos)
    {
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.IDLE == c.state)
            {
                begin(c, nowNanos);
            }
        }
    }

    private void begin(final RegionConnection c, final long nowNanos)
    {
        c.attempts++;
        c.state = RegionConnection.State.REQ_SENT;
        c.retriesLeft = timing.maxCmRetries();
        c.deadlineNanos = nowNanos + cmTimeoutNanos;
        sendReq(c, nowNanos);
    }

    /**
     * Connects a region again, whatever its state (typically after its QP went to the error state): a new
     * communication ID, transaction ID and random starting PSN, so that nothing of the previous connection (late
     * REPs, duplicate SENDs, responses to old PSNs) can be taken for the new one, then a REQ. The collector takes a
     * REQ with a new communication ID as a reconnection of the QP. The region ends {@code CONNECTED} or {@code FAILED}
     * again; {@link RegionConnection#connectedRegion()} then has the new parameters and starting PSN.
     *
     * @param connection one of {@link #connections()}.
     * @param nowNanos   the current time.
     */
    public void reconnect(final RegionConnection connection, final long nowNanos)
    {
        if (!connectionList.contains(connection))
        {
            throw new IllegalArgumentException(connection.describe() + " is not managed here");
        }
        connection.restart(1 + random.nextLong(0xFFFF_FFFEL), random.nextLong(), random.nextInt(1 << 24));
        count(ConnectionCounter.RECONNECT_ATTEMPTS);
        begin(connection, nowNanos);
    }

    /**
     * Ends every connected negotiated region (IB CM): a DREQ naming the connection (the appliance's communication ID
     * as local, the collector's as remote, the collector's QPN) with a new transaction ID, re-sent after
     * {@code cmResponseTimeout} at most {@code maxCmRetries} times. A matching DREP makes the region
     * {@link RegionConnection.State#DISCONNECTED}; so does the last timeout (counted). Call {@link #poll(long)} and
     * offer received frames until {@link #disconnectDone()}, at most {@link #disconnectTimeoutNanos()}.
     *
     * @param nowNanos the current time.
     * @return the number of regions now disconnecting.
     */
    public int disconnect(final long nowNanos)
    {
        int n = 0;
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.CONNECTED == c.state)
            {
                c.state = RegionConnection.State.DISCONNECTING;
                c.disconnectTransactionId = random.nextLong();
                c.retriesLeft = timing.maxCmRetries();
                c.deadlineNanos = nowNanos + cmTimeoutNanos;
                sendDreq(c, nowNanos);
                n++;
            }
        }
        return n;
    }

    /**
     * @return true when no region is waiting for a DREP (also true before any {@link #disconnect(long)}).
     */
    public boolean disconnectDone()
    {
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.DISCONNECTING == c.state)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return how long a {@link #disconnect(long)} may take: {@code (maxCmRetries + 1) × cmResponseTimeout}.
     */
    public long disconnectTimeoutNanos()
    {
        return (timing.maxCmRetries() + 1L) * cmTimeoutNanos;
    }

    private int regionsIn(final RegionConnection.State state)
    {
        int count = 0;
        for (final RegionConnection c : connections)
        {
            count += state == c.state ? 1 : 0;
        }
        return count;
    }

    /**
     * @return a one-line summary of a disconnection, e.g. {@code 3 negotiated region(s) disconnected: 3 by DREP, 0
     * without an answer (4 DREQs sent)}; a region still waiting for its DREP counts as without an answer.
     */
    public String disconnectSummary()
    {
        final int disconnected = regionsIn(RegionConnection.State.DISCONNECTED);
        final int waiting = regionsIn(RegionConnection.State.DISCONNECTING);
        return (disconnected + waiting) + " negotiated region(s) disconnected: " + counter(ConnectionCounter.DREPS) +
            " by DREP, " + (counter(ConnectionCounter.DISCONNECT_TIMEOUTS) + waiting) + " without an answer (" +
            counter(ConnectionCounter.DREQS_SENT) + " DREQs sent)";
    }

    /**
     * Offers a received frame. CM MADs to QP1 and SENDs to the local QPN of a negotiated region are taken (and
     * answered when valid); everything else is left to the engine.
     *
     * @param buffer   the frame's buffer.
     * @param offset   frame start.
     * @param length   frame length (no FCS).
     * @param nowNanos receive time.
     * @return true if the frame was for connection set-up (handled or dropped and counted here).
     */
    public boolean onFrame(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        counters[ConnectionCounter.FRAMES_IN.ordinal()]++;
        if (0 == connections.length || FrameKind.ROCE != decoder.decode(buffer, offset, length))
        {
            return notMine();
        }
        final int opcode = decoder.roceOpcode();
        final int destQp = decoder.bth().destQp();
        if (RoceOpcode.UD_SEND_ONLY == opcode && DethFlyweight.GSI_QPN == destQp)
        {
            onMad(nowNanos);
            return true;
        }
        if (opcode > RoceOpcode.RC_SEND_ONLY_WITH_IMMEDIATE)
        {
            return notMine();
        }
        final int srcIp = decoder.ipv4().src();
        for (final RegionConnection c : connections)
        {
            if (c.region.localQpn() == destQp && c.collector.ip() == srcIp)
            {
                onSend(c, opcode, nowNanos);
                return true;
            }
        }
        return notMine();
    }

    private boolean notMine()
    {
        count(ConnectionCounter.NOT_CONNECTION_FRAMES);
        return false;
    }

    private void onMad(final long nowNanos)
    {
        if (!decoder.icrcValid())
        {
            count(ConnectionCounter.BAD_ICRC);
            return;
        }
        if (decoder.payloadLength() < MadHeaderFlyweight.MAD_LENGTH ||
            DethFlyweight.GSI_Q_KEY != decoder.deth().qKey())
        {
            count(ConnectionCounter.BAD_MADS);
            return;
        }
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        if (!mad.isCmSend())
        {
            count(ConnectionCounter.BAD_MADS);
            return;
        }
        final int srcIp = decoder.ipv4().src();
        boolean known = false;
        for (final CollectorConfig collector : config.collectors())
        {
            known |= collector.ip() == srcIp;
        }
        if (!known)
        {
            count(ConnectionCounter.UNKNOWN_SOURCE);
            return;
        }
        switch (mad.attributeId())
        {
            case MadHeaderFlyweight.ATTRIBUTE_REP -> onRep(srcIp, nowNanos);
            case MadHeaderFlyweight.ATTRIBUTE_REJ -> onRej(srcIp);
            case MadHeaderFlyweight.ATTRIBUTE_DREQ -> onDreq(srcIp, nowNanos);
            case MadHeaderFlyweight.ATTRIBUTE_DREP -> onDrep(srcIp);
            default -> count(ConnectionCounter.UNSUPPORTED_MADS);
        }
    }

    private RegionConnection match(final int srcIp, final long echoedCommId)
    {
        final long tid = mad.transactionId();
        for (final RegionConnection c : connections)
        {
            if (c.transactionId == tid && c.localCommId == echoedCommId && c.collector.ip() == srcIp)
            {
                return c;
            }
        }
        return null;
    }

    private void onRep(final int srcIp, final long nowNanos)
    {
        rep.wrap(mad.buffer(), mad.dataOffset());
        final RegionConnection c = match(srcIp, rep.remoteCommId());
        if (null == c)
        {
            count(ConnectionCounter.UNMATCHED_MADS);
            return;
        }
        final int qpn = rep.localQpn();
        switch (c.state)
        {
            case REQ_SENT ->
            {
                if (qpn < QPN_MIN || qpn > QPN_MAX)
                {
                    count(ConnectionCounter.INVALID_REPS);
                    sendRej(c, rep.localCommId(), CmRejFlyweight.REASON_UNSUPPORTED_REQUEST, nowNanos);
                    fail(c, String.format("REP with invalid QPN 0x%06x", qpn));
                    return;
                }
                final int granted = rep.responderResources();
                if (c.atomics > 0 && 0 == granted)
                {
                    // The collector's QP would refuse every atomic: the region cannot work at all.
                    count(ConnectionCounter.INVALID_REPS);
                    sendRej(c, rep.localCommId(), CmRejFlyweight.REASON_INSUFFICIENT_RESPONDER_RESOURCES, nowNanos);
                    fail(c, "REP grants 0 outstanding atomics (responder resources), keyIncrement." +
                        "maxOutstandingAtomics is " + c.atomics + ": set it to at most 0 (the collector accepts no " +
                        "atomics: give its QP responder resources)");
                    return;
                }
                count(ConnectionCounter.REPS);
                // As rdma-core does, run with what the collector grants when it is less than asked: its QP would
                // refuse (or forget the replies of) the atomics beyond that. Never more than asked (IBA).
                c.atomicsLimit = Math.min(granted, c.atomics);
                if (c.atomicsReduced())
                {
                    count(ConnectionCounter.ATOMICS_REDUCED);
                    // Once per set-up attempt, not per frame (duplicate REPs take the other branch).
                    System.err.println("dta: " + c.region.path() + ": collector grants " + granted +
                        " outstanding atomics, fewer than maxOutstandingAtomics " + c.atomics + ": using " +
                        c.atomicsLimit);
                }
                c.remoteCommId = rep.localCommId();
                c.remoteQpn = qpn;
                c.remoteStartPsn = rep.startingPsn();
                c.state = RegionConnection.State.RTU_SENT;
                c.deadlineNanos = nowNanos + sendWaitNanos;
                sendRtu(c, nowNanos);
            }
            case RTU_SENT, CONNECTED ->
            {
                if (rep.localCommId() != c.remoteCommId || qpn != c.remoteQpn ||
                    rep.startingPsn() != c.remoteStartPsn)
                {
                    count(ConnectionCounter.INVALID_REPS);
                    return;
                }
                count(ConnectionCounter.DUPLICATE_REPS);
                sendRtu(c, nowNanos);
            }
            default -> count(ConnectionCounter.UNMATCHED_MADS);
        }
    }

    private void onRej(final int srcIp)
    {
        rej.wrap(mad.buffer(), mad.dataOffset());
        final RegionConnection c = match(srcIp, rej.remoteCommId());
        if (null == c || (RegionConnection.State.REQ_SENT != c.state && RegionConnection.State.RTU_SENT != c.state))
        {
            count(ConnectionCounter.UNMATCHED_MADS);
            return;
        }
        count(ConnectionCounter.REJS);
        fail(c, "rejected by the collector: " + CmRejFlyweight.reasonName(rej.reason()) + " (REJ reason " +
            rej.reason() + ")");
    }

    private void onDreq(final int srcIp, final long nowNanos)
    {
        dreq.wrap(mad.buffer(), mad.dataOffset());
        for (final RegionConnection c : connections)
        {
            if (c.collector.ip() != srcIp || c.remoteCommId != dreq.localCommId() ||
                c.localCommId != dreq.remoteCommId() || c.region.localQpn() != dreq.remoteQpn())
            {
                continue;
            }
            if (RegionConnection.State.CONNECTED == c.state || RegionConnection.State.DISCONNECTING == c.state)
            {
                // While our own DREQ is out too (both ends disconnecting at once) IBA answers it: either way it
                // ends here. Only a connection the appliance meant to keep is connected again.
                count(ConnectionCounter.DREQS_IN);
                c.disconnectedByCollector = RegionConnection.State.CONNECTED == c.state;
                c.state = RegionConnection.State.DISCONNECTED;
                c.deadlineNanos = Long.MAX_VALUE;
                sendDrep(c, nowNanos);
                return;
            }
            if (RegionConnection.State.DISCONNECTED == c.state)
            {
                count(ConnectionCounter.DUPLICATE_DREQS);
                sendDrep(c, nowNanos);
                return;
            }
        }
        count(ConnectionCounter.UNMATCHED_DISCONNECTS);
    }

    private void onDrep(final int srcIp)
    {
        drep.wrap(mad.buffer(), mad.dataOffset());
        final long tid = mad.transactionId();
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.DISCONNECTING == c.state && c.collector.ip() == srcIp &&
                c.disconnectTransactionId == tid && c.remoteCommId == drep.localCommId() &&
                c.localCommId == drep.remoteCommId())
            {
                count(ConnectionCounter.DREPS);
                c.state = RegionConnection.State.DISCONNECTED;
                c.deadlineNanos = Long.MAX_VALUE;
                return;
            }
        }
        count(ConnectionCounter.UNMATCHED_DISCONNECTS);
    }

    private void onSend(final RegionConnection c, final int opcode, final long nowNanos)
    {
        if (!decoder.icrcValid())
        {
            count(ConnectionCounter.BAD_ICRC);
            return;
        }
        final int psn = decoder.bth().psn();
        if (RegionConnection.State.IDLE == c.state || RegionConnection.State.REQ_SENT == c.state ||
            0 == c.remoteQpn)
        {
            dropSend(c, "SEND before the REP");
            return;
        }
        if (RegionConnection.State.DISCONNECTING == c.state || RegionConnection.State.DISCONNECTED == c.state)
        {
            dropSend(c, "SEND after the disconnection");
            return;
        }
        if (RoceOpcode.RC_SEND_ONLY != opcode)
        {
            dropSend(c, "SEND opcode " + RoceOpcode.name(opcode) + " (a 16-byte metadata SEND is one SEND Only)");
            return;
        }
        if (psn != c.remoteStartPsn)
        {
            dropSend(c, String.format("SEND with PSN 0x%06x, the REP's starting PSN is 0x%06x", psn,
                c.remoteStartPsn));
            return;
        }
        if (RegionConnection.State.CONNECTED == c.state || RegionConnection.State.FAILED == c.state)
        {
            // Our ACK was lost: acknowledge again so the collector's QP does not run out of retries.
            count(ConnectionCounter.DUPLICATE_SENDS);
            sendAck(c, psn, nowNanos);
            return;
        }

        // The SEND arrived intact at the right PSN: acknowledge it at transport level whatever its content says,
        // then judge the content.
        sendAck(c, psn, nowNanos);
        final String problem = validate(c);
        if (null != problem)
        {
            count(ConnectionCounter.SENDS_INVALID);
            fail(c, problem);
            return;
        }
        count(ConnectionCounter.SENDS);
        count(ConnectionCounter.CONNECTED);
        c.state = RegionConnection.State.CONNECTED;
        c.deadlineNanos = Long.MAX_VALUE;
    }

    private String validate(final RegionConnection c)
    {
        if (METADATA_LENGTH != decoder.payloadLength())
        {
            return "metadata SEND of " + decoder.payloadLength() + " bytes, expected " + METADATA_LENGTH;
        }
        final DirectBuffer b = decoder.buffer();
        final int p = decoder.payloadOffset();
        c.address = b.getLong(p, ByteOrder.LITTLE_ENDIAN);
        c.length = b.getInt(p + 8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        c.rkey = b.getInt(p + 12, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        final long needed = c.region.length();
        if (c.length < needed)
        {
            return "the collector advertised " + c.length + " bytes at 0x" + Long.toHexString(c.address) +
                ", the configuration needs " + needed;
        }
        if (0 != (c.address & (RegionConfig.ADDRESS_ALIGNMENT - 1)))
        {
            return "the collector advertised address 0x" + Long.toHexString(c.address) + ", not 8-byte aligned";
        }
        if (Long.compareUnsigned(c.address + (needed - 1), c.address) < 0)
        {
            return "the collector advertised address 0x" + Long.toHexString(c.address) + ": " + needed +
                " bytes from there run past the end of the 64-bit address space";
        }
        return null;
    }

    private void dropSend(final RegionConnection c, final String why)
    {
        count(ConnectionCounter.SENDS_DROPPED);
        c.droppedSends++;
        c.lastDrop = why;
    }

    /**
     * Timers: re-sends overdue REQs and fails regions out of retries or still without their metadata SEND.
     *
     * @param nowNanos the current time.
     * @return the number of regions that changed state or had a frame re-sent.
     */
    public int poll(final long nowNanos)
    {
        int work = 0;
        for (final RegionConnection c : connections)
        {
            if (nowNanos < c.deadlineNanos)
            {
                continue;
            }
            work++;
            if (RegionConnection.State.REQ_SENT == c.state)
            {
                if (c.retriesLeft <= 0)
                {
                    fail(c, "no REP after " + (timing.maxCmRetries() + 1) + " REQs, " + millis(cmTimeoutNanos) +
                        " apart" + dropNote(c));
                    continue;
                }
                c.retriesLeft--;
                c.deadlineNanos = nowNanos + cmTimeoutNanos;
                count(ConnectionCounter.REQ_TIMEOUTS);
                sendReq(c, nowNanos);
            }
            else if (RegionConnection.State.RTU_SENT == c.state)
            {
                fail(c, "no valid metadata SEND within " + millis(sendWaitNanos) + " of the REP" + dropNote(c));
            }
            else if (RegionConnection.State.DISCONNECTING == c.state)
            {
                if (c.retriesLeft <= 0)
                {
                    // IBA: the connection is gone all the same when the DREQ timer runs out.
                    count(ConnectionCounter.DISCONNECT_TIMEOUTS);
                    c.state = RegionConnection.State.DISCONNECTED;
                    c.deadlineNanos = Long.MAX_VALUE;
                    continue;
                }
                c.retriesLeft--;
                c.deadlineNanos = nowNanos + cmTimeoutNanos;
                count(ConnectionCounter.DREQ_TIMEOUTS);
                sendDreq(c, nowNanos);
            }
            else
            {
                c.deadlineNanos = Long.MAX_VALUE;
            }
        }
        return work;
    }

    private static String dropNote(final RegionConnection c)
    {
        return 0 == c.droppedSends ? "" : " (" + c.droppedSends + " SEND(s) dropped, last: " + c.lastDrop + ")";
    }

    private static String millis(final long nanos)
    {
        return String.format("%.3f ms", nanos / 1e6);
    }

    private void fail(final RegionConnection c, final String why)
    {
        c.state = RegionConnection.State.FAILED;
        c.failure = why;
        c.deadlineNanos = Long.MAX_VALUE;
        count(ConnectionCounter.FAILED);
    }

    private void sendReq(final RegionConnection c, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_REQ, c.transactionId);
        if (at < 0)
        {
            return;
        }
        final RegionConfig region = c.region;
        final CollectorConfig collector = c.collector;
        cm.req()
            .localCommId(c.localCommId)
            .serviceId(CmReqFlyweight.rdmaCmServiceId(region.servicePort()))
            .localCaGuid(CmReqFlyweight.caGuidOf(translator.mac()))
            .localQKey(0)
            .localQpn(region.localQpn())
            .responderResources(0)
            .initiatorDepth(c.atomics)
            .remoteCmResponseTimeout(timing.cmResponseTimeout())
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC)
            .startingPsn(c.startPsn)
            .localCmResponseTimeout(timing.cmResponseTimeout())
            .retryCount(timing.retryCount())
            .pKey(translator.pKey())
            .pathMtu(mtuCode(collector.pathMtu()))
            .rnrRetryCount(7)
            .maxCmRetries(timing.maxCmRetries())
            .primaryLocalLid(0xFFFF)
            .primaryRemoteLid(0xFFFF)
            .primaryLocalGidIpv4(translator.ip())
            .primaryRemoteGidIpv4(collector.ip())
            .primaryFlowLabelAndRate(0, 0)
            .primaryTrafficClass((translator.dscp() << 2) | translator.ecn())
            .primaryHopLimit(translator.ttl())
            .primaryLocalAckTimeout(timing.localAckTimeout());
        cma.wrap(sink.buffer(), cm.req().privateDataOffset())
            .ipv4(region.udpSourcePort(), translator.ip(), collector.ip());
        finishCm(at, ConnectionCounter.REQS_SENT, nowNanos);
    }

    private void sendRtu(final RegionConnection c, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_RTU, c.transactionId);
        if (at < 0)
        {
            return;
        }
        cm.rtu().localCommId(c.localCommId).remoteCommId(c.remoteCommId);
        finishCm(at, ConnectionCounter.RTUS_SENT, nowNanos);
    }

    /**
     * The REJ of a REP the appliance refuses (message rejected: REP), with the attempt's transaction ID, so the
     * collector stops re-sending its REP and listens again.
     */
    private void sendRej(final RegionConnection c, final long remoteCommId, final int reason, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_REJ, c.transactionId);
        if (at < 0)
        {
            return;
        }
        cm.rej().localCommId(c.localCommId).remoteCommId(remoteCommId).messageRejected(CmRejFlyweight.REJECTED_REP)
            .reason(reason);
        finishCm(at, ConnectionCounter.REJS_SENT, nowNanos);
    }

    private void sendDreq(final RegionConnection c, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_DREQ, c.disconnectTransactionId);
        if (at < 0)
        {
            return;
        }
        cm.dreq().localCommId(c.localCommId).remoteCommId(c.remoteCommId).remoteQpn(c.remoteQpn);
        finishCm(at, ConnectionCounter.DREQS_SENT, nowNanos);
    }

    /**
     * The DREP of the DREQ being handled: its transaction ID echoed.
     */
    private void sendDrep(final RegionConnection c, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_DREP, mad.transactionId());
        if (at < 0)
        {
            return;
        }
        cm.drep().localCommId(c.localCommId).remoteCommId(c.remoteCommId);
        finishCm(at, ConnectionCounter.DREPS_SENT, nowNanos);
    }

    /**
     * Claims a frame and writes the addressing and MAD header of a CM message to the region's collector.
     *
     * @return where the frame starts, or -1 when the sink is full (counted).
     */
    private int beginCm(final RegionConnection c, final int attribute, final long transactionId)
    {
        final int at = sink.claim(CmFrameEncoder.FRAME_LENGTH);
        if (at < 0)
        {
            count(ConnectionCounter.SINK_FULL);
            return -1;
        }
        cm.encoder().dstMac(c.collector.mac()).dstIp(c.collector.ip()).srcPort(c.region.udpSourcePort())
            .psn(nextMadPsn());
        cm.begin(sink.buffer(), at, attribute, transactionId, 0);
        return at;
    }

    private void finishCm(final int at, final ConnectionCounter sent, final long nowNanos)
    {
        sink.commit(at, cm.finish(sink.buffer(), at), nowNanos, OutFrameKind.CONTROL, 0);
        count(sent);
    }

    private void sendAck(final RegionConnection c, final int psn, final long nowNanos)
    {
        final int at = sink.claim(ACK_FRAME_LENGTH);
        if (at < 0)
        {
            count(ConnectionCounter.SINK_FULL);
            return;
        }
        ack.dstMac(c.collector.mac()).dstIp(c.collector.ip()).srcPort(c.region.udpSourcePort())
            .destQp(c.remoteQpn).psn(psn);
        final int length = ack.encode(sink.buffer(), at);
        sink.commit(at, length, nowNanos, OutFrameKind.CONTROL, 0);
        count(ConnectionCounter.ACKS_SENT);
    }

    private int nextMadPsn()
    {
        final int psn = madPsn;
        madPsn = Psn.next(madPsn);
        return psn;
    }

    private static int mtuCode(final int pathMtu)
    {
        return Integer.numberOfTrailingZeros(pathMtu) - 7;
    }

    void count(final ConnectionCounter counter)
    {
        counters[counter.ordinal()]++;
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final ConnectionCounter counter)
    {
        return counters[counter.ordinal()];
    }

    /**
     * @return the {@code connection} section: set-up timing and reconnection policy.
     */
    public ConnectionConfig timing()
    {
        return timing;
    }

    /**
     * @return one entry per negotiated region, in configuration order.
     */
    public List<RegionConnection> connections()
    {
        return connectionList;
    }

    /**
     * @return true when every negotiated region is connected or failed (also true with none).
     */
    public boolean isDone()
    {
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.CONNECTED != c.state && RegionConnection.State.FAILED != c.state)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return true when every negotiated region is connected (also true with none).
     */
    public boolean allConnected()
    {
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.CONNECTED != c.state)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the earliest time {@link #poll(long)} has work, or {@link Long#MAX_VALUE}.
     */
    public long nextDeadline()
    {
        long next = Long.MAX_VALUE;
        for (final RegionConnection c : connections)
        {
            next = Math.min(next, c.deadlineNanos);
        }
        return next;
    }

    /**
     * @return one line per failed region: {@code path (collector service port P): reason}.
     */
    public List<String> failures()
    {
        final List<String> failures = new ArrayList<>();
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.FAILED == c.state)
            {
                failures.add(c.describe() + ": " + c.failure);
            }
        }
        return failures;
    }

    /**
     * The configuration the engine runs with: every negotiated region with the QPN, R_Key and address learned,
     * and its {@code startPsn} the PSN advertised in the REQ (what the collector expects first); a Key-Increment
     * region whose REP granted fewer outstanding atomics has that grant as {@code maxOutstandingAtomics}.
     *
     * @return the connected configuration.
     * @throws IllegalStateException unless every negotiated region is connected; the message lists the failures.
     */
    public ApplianceConfig connectedConfig()
    {
        if (!allConnected())
        {
            final List<String> problems = failures();
            for (final RegionConnection c : connections)
            {
                if (RegionConnection.State.CONNECTED != c.state && RegionConnection.State.FAILED != c.state)
                {
                    problems.add(c.describe() + ": still " + c.state);
                }
            }
            throw new IllegalStateException("connection set-up incomplete: " + String.join("; ", problems));
        }
        final ApplianceConfig connected = config.withRegions((collector, region) ->
        {
            for (final RegionConnection c : connections)
            {
                if (c.region == region)
                {
                    return c.connectedRegion();
                }
            }
            return region;
        });
        boolean reduced = false;
        for (final RegionConnection c : connections)
        {
            reduced |= c.atomicsReduced();
        }
        if (!reduced)
        {
            return connected;
        }
        final List<CollectorConfig> collectors = new ArrayList<>();
        for (final CollectorConfig collector : connected.collectors())
        {
            collectors.add(withGrantedAtomics(collector));
        }
        return new ApplianceConfig(connected.translator(), connected.reports(), connected.redundancy(),
            connected.append(), connected.postcards(), connected.acks(), connected.resync(), connected.essential(),
            collectors, connected.connection());
    }

    /**
     * The collector with {@code keyIncrement.maxOutstandingAtomics} lowered to what its REP granted, if it did.
     */
    private CollectorConfig withGrantedAtomics(final CollectorConfig collector)
    {
        final KeyIncrementConfig ki = collector.keyIncrement();
        if (null == ki)
        {
            return collector;
        }
        for (final RegionConnection c : connections)
        {
            if (c.atomicsReduced() && c.region.localQpn() == ki.region().localQpn() &&
                c.collector.ip() == collector.ip())
            {
                return new CollectorConfig(collector.name(), collector.mac(), collector.ip(), collector.pathMtu(),
                    collector.keyWrite(), new KeyIncrementConfig(ki.region(), c.atomicsLimit, ki.atomicQueueSize()),
                    collector.postcards(), collector.lists(), collector.sketches());
            }
        }
        return collector;
    }

    /**
     * @return a one-line summary, e.g. {@code 7 regions: 7 connected, 0 failed (12 REQs, 7 RTUs, 7 ACKs sent)}, with
     * the connected regions whose REP granted fewer outstanding atomics than asked, e.g. {@code (12 REQs, 7 RTUs, 7
     * ACKs sent; fewer atomics granted: collectors[0].keyIncrement 8 of 16)}.
     */
    public String summary()
    {
        final int connected = regionsIn(RegionConnection.State.CONNECTED);
        final int failed = regionsIn(RegionConnection.State.FAILED);
        final StringBuilder reduced = new StringBuilder();
        for (final RegionConnection c : connections)
        {
            if (RegionConnection.State.CONNECTED == c.state && c.atomicsReduced())
            {
                reduced.append(reduced.isEmpty() ? "; fewer atomics granted: " : ", ").append(c.region.path())
                    .append(' ').append(c.atomicsLimit).append(" of ").append(c.atomics);
            }
        }
        // After a stop the connected regions are disconnecting or disconnected: said, so that the final summary does
        // not read as if none had ever connected.
        final int disconnecting = regionsIn(RegionConnection.State.DISCONNECTING);
        final int disconnected = regionsIn(RegionConnection.State.DISCONNECTED);
        return connections.length + " negotiated region(s): " + connected + " connected, " + failed + " failed" +
            (0 == disconnecting ? "" : ", " + disconnecting + " disconnecting") +
            (0 == disconnected ? "" : ", " + disconnected + " disconnected") + " (" +
            counter(ConnectionCounter.REQS_SENT) + " REQs, " + counter(ConnectionCounter.RTUS_SENT) + " RTUs, " +
            counter(ConnectionCounter.ACKS_SENT) + " ACKs sent" + reduced + ")";
    }
}
