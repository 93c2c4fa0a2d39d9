package io.dta.collector.responder;

import io.dta.codec.AethFlyweight;
import io.dta.codec.CmDrepFlyweight;
import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.CmRtuFlyweight;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.Psn;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.config.TranslatorConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The responder (passive) side of connection set-up (translation.md §8) for the soft collector's negotiated QPs:
 * CM MADs on QP1 and the metadata SEND, as the reference's collector did through librdmacm, with the timeouts the
 * requester advertised in its REQ.
 * <ul>
 *     <li>REQ for a hosted service port (RDMA-CM TCP service ID, RC, valid QPN, from the translator's address):
 *     the QP takes the REQ's local QPN as its peer and the REQ's starting PSN as its expected PSN, goes to RTR, and
 *     a REP carries its QPN, its own starting PSN (the metadata SEND's PSN) and as responder resources the REQ's
 *     initiator depth, at most {@value ResponderQp#SAVED_ATOMICS} (the atomics it can replay; fewer with
 *     {@link SoftResponder#maxResponderResources(int)}). The REP is re-sent after the REQ's
 *     local CM response timeout, at most max CM retries times; then the attempt is abandoned (QP idle again).
 *     A duplicate REQ (same communication ID and transaction ID) while the REP waits gets the REP again; one of an
 *     established connection is stale and dropped; a REQ with a new communication ID reconnects the QP.</li>
 *     <li>A region serves several connections at once, one per translator QP (the REQ's local QPN), each on a QP of
 *     its own over the region's memory: a REQ goes to the QP that served its local QPN before (a duplicate, or a
 *     reconnection: the translator keeps its QPN), else to a QP of the region that listens, else to a new QP with a
 *     fresh QPN, at most {@link SoftResponder#maxConnectionsPerRegion(int)} QPs per region; beyond, a REJ
 *     "no QP available" (reason 1).</li>
 *     <li>REQ for any other service, not RC, or with an invalid QPN: REJ (invalid service ID, invalid transport
 *     type, unsupported request). After {@link #stopListening()} every REQ gets the invalid service ID REJ, as from
 *     a host whose listener is gone.</li>
 *     <li>RTU matching the REP's communication IDs (or a first valid request on the QP, as IBA allows): the QP is
 *     ready, and the metadata SEND goes out: RC SEND Only, AckReq, 16 bytes {address u64 LE, length u32 LE,
 *     R_Key u32 LE}, as the reference's collector sent it. It is re-sent after the REQ's primary local ACK
 *     timeout, at most the REQ's retry count times, until an ACK with its PSN arrives; when retries run out the QP
 *     goes to the error state, as an RC requester's QP does on retry-exceeded.</li>
 *     <li>REJ from the translator matching a connection in progress: back to listening.</li>
 *     <li>DREQ from the translator naming a connection of a hosted QP (its communication IDs and this QP's QPN):
 *     a DREP, and the QP listens again (requests dropped as not connected until a new REQ; memory kept). A repeated
 *     DREQ of that connection (the DREP was lost) gets the DREP again. {@link #disconnect} starts the other way:
 *     the QP stops executing, a DREQ goes out, re-sent after the REQ's CM response timeout at most max CM retries
 *     times; the matching DREP (or the last timeout) leaves the QP listening.</li>
 * </ul>
 * Communication IDs and starting PSNs come from a seeded generator. Single-threaded; no allocation per frame but for
 * the QP of a region's further connection.
 */
final class ConnectionResponder
{
    private static final int FRAME_CAPACITY = 512;
    private static final int METADATA_LENGTH = 16;
    private final SoftResponder responder;
    private final TranslatorConfig translator;
    private final CmFrameEncoder cm = new CmFrameEncoder();
    private final RoceFrameEncoder send = new RoceFrameEncoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();
    private final RdmaCmHeaderFlyweight cma = new RdmaCmHeaderFlyweight();
    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(FRAME_CAPACITY));
    private final UnsafeBuffer metadata = new UnsafeBuffer(new byte[METADATA_LENGTH]);
    private SplittableRandom random;
    private int madPsn;
    private int maxResponderResources = ResponderQp.SAVED_ATOMICS;
    private int maxConnectionsPerRegion = SoftResponder.DEFAULT_CONNECTIONS_PER_REGION;
    private boolean listening = true;
    private final QpnSpace qpns;

    ConnectionResponder(final SoftResponder responder, final TranslatorConfig translator, final long seed)
    {
        this.responder = responder;
        this.translator = translator;
        int negotiated = 0;
        int highest = QpnSpace.QPN_MIN - 1;
        for (final ResponderQp qp : responder.qps)
        {
            negotiated += qp.negotiated ? 1 : 0;
            highest = Math.max(highest, qp.qpn);
        }
        qpns = new QpnSpace(negotiated, highest);
        seed(seed);
        final int tos = (translator.dscp() << 2) | translator.ecn();
        cm.encoder()
            .dstMac(translator.mac())
            .dstIp(translator.ip())
            .srcPort(SoftResponder.RESPONSE_SOURCE_PORT)
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos(tos)
            .ttl(translator.ttl())
            .identification(0)
            .migReq(true)
            .pKey(translator.pKey());
        send
            .dstMac(translator.mac())
            .dstIp(translator.ip())
            .srcPort(SoftResponder.RESPONSE_SOURCE_PORT)
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos(tos)
            .ttl(translator.ttl())
            .identification(0)
            .migReq(true)
            .pKey(translator.pKey())
            .opcode(RoceOpcode.RC_SEND_ONLY)
            .ackReq(true);
    }

    void maxResponderResources(final int limit)
    {
        maxResponderResources = limit;
    }

    void maxConnectionsPerRegion(final int limit)
    {
        maxConnectionsPerRegion = limit;
    }

    void stopListening()
    {
        listening = false;
    }

    void seed(final long seed)
    {
        random = new SplittableRandom(seed);
        madPsn = random.nextInt(1 << 24);
    }

    /**
     * A UD SEND to QP1 whose ICRC was checked.
     */
    void onMad(final FrameDecoder decoder, final long nowNanos, final ResponseSink out)
    {
        responder.count(ResponderCounter.CM_MADS_IN);
        final DethFlyweight deth = decoder.deth();
        if (decoder.payloadLength() < MadHeaderFlyweight.MAD_LENGTH || DethFlyweight.GSI_Q_KEY != deth.qKey())
        {
            responder.count(ResponderCounter.CM_BAD_MADS);
            return;
        }
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        if (!mad.isCmSend())
        {
            responder.count(ResponderCounter.CM_BAD_MADS);
            return;
        }
        if (decoder.ipv4().src() != translator.ip())
        {
            responder.count(ResponderCounter.BAD_IP_SRC);
            return;
        }
        final int collectorIp = decoder.ipv4().dst();
        switch (mad.attributeId())
        {
            case MadHeaderFlyweight.ATTRIBUTE_REQ -> onReq(collectorIp, nowNanos, out);
            case MadHeaderFlyweight.ATTRIBUTE_RTU -> onRtu(collectorIp, nowNanos, out);
            case MadHeaderFlyweight.ATTRIBUTE_REJ -> onRej(collectorIp);
            case MadHeaderFlyweight.ATTRIBUTE_DREQ -> onDreq(collectorIp, out);
            case MadHeaderFlyweight.ATTRIBUTE_DREP -> onDrep(collectorIp);
            default -> responder.count(ResponderCounter.CM_UNSUPPORTED);
        }
    }

    private void onReq(final int collectorIp, final long nowNanos, final ResponseSink out)
    {
        req.wrap(mad.buffer(), mad.dataOffset());
        final long tid = mad.transactionId();
        final long peerCommId = req.localCommId();
        final int port = CmReqFlyweight.rdmaCmServicePort(req.serviceId());
        final ResponderQp service = service(collectorIp, port);
        if (null == service && !hostsCollector(collectorIp))
        {
            responder.count(ResponderCounter.BAD_IP_DST);
            return;
        }
        if (null == service || !listening)
        {
            // A stopping collector has no listener any more: what a host answers then (rdma_cm, no listener).
            reject(collectorIp, tid, peerCommId, CmRejFlyweight.REASON_INVALID_SERVICE_ID, out);
            return;
        }
        final int peerQpn = req.localQpn();
        ResponderQp qp = connectionFor(service, peerQpn);
        if (null != qp && qp.connection != ResponderQp.Connection.LISTEN && qp.cmRemoteCommId == peerCommId &&
            qp.cmTransactionId == tid)
        {
            if (ResponderQp.Connection.REP_SENT == qp.connection)
            {
                responder.count(ResponderCounter.CM_DUPLICATE_REQS);
                sendRep(qp, out);
            }
            else
            {
                responder.count(ResponderCounter.CM_STALE_REQS);
            }
            return;
        }
        if (CmReqFlyweight.TRANSPORT_RC != req.transportServiceType())
        {
            reject(collectorIp, tid, peerCommId, CmRejFlyweight.REASON_INVALID_TRANSPORT_TYPE, out);
            return;
        }
        cma.wrap(mad.buffer(), req.privateDataOffset());
        if (peerQpn < QpnSpace.QPN_MIN || peerQpn > QpnSpace.QPN_MAX || 4 != cma.ipVersion() ||
            cma.dstIpv4() != collectorIp)
        {
            reject(collectorIp, tid, peerCommId, CmRejFlyweight.REASON_UNSUPPORTED_REQUEST, out);
            return;
        }
        if (null == qp)
        {
            qp = addConnection(service, nowNanos);
            if (null == qp)
            {
                // Every QP of the region serves a connection: what a CM answers when it can create no more QPs.
                responder.count(ResponderCounter.CM_CONNECTION_LIMIT_REJECTS);
                reject(collectorIp, tid, peerCommId, CmRejFlyweight.REASON_NO_QP, out);
                return;
            }
        }
        accept(qp, peerQpn, peerCommId, tid, nowNanos, out);
    }

    /**
     * @return the first QP of the collector's negotiated region on this service port, or null.
     */
    private ResponderQp service(final int collectorIp, final int port)
    {
        for (final ResponderQp candidate : responder.qps)
        {
            if (candidate.collector.ip() == collectorIp && candidate.negotiated &&
                candidate.region.servicePort() == port && port > 0)
            {
                return candidate;
            }
        }
        return null;
    }

    private boolean hostsCollector(final int collectorIp)
    {
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.collector.ip() == collectorIp)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The QP of the region that serves a REQ from the translator's QP {@code peerQpn}: the one that served that QP
     * before (a duplicate REQ, or a reconnection: the translator keeps its QPN), else the first that listens (one that
     * never connected, or whose connection ended), else null (a new QP is needed).
     */
    private ResponderQp connectionFor(final ResponderQp service, final int peerQpn)
    {
        ResponderQp listener = null;
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.region != service.region || qp.collector != service.collector)
            {
                continue;
            }
            if (qp.cmEverConnected && qp.peerQpn == peerQpn)
            {
                return qp;
            }
            if (null == listener && ResponderQp.Connection.LISTEN == qp.connection)
            {
                listener = qp;
            }
        }
        return listener;
    }

    /**
     * A new QP of the region over the same memory, with a fresh QPN; null when the region has
     * {@link #maxConnectionsPerRegion} QPs already.
     */
    private ResponderQp addConnection(final ResponderQp service, final long nowNanos)
    {
        int count = 0;
        for (final ResponderQp qp : responder.qps)
        {
            count += qp.region == service.region && qp.collector == service.collector ? 1 : 0;
        }
        if (count >= maxConnectionsPerRegion)
        {
            return null;
        }
        final int qpn = qpns.allocate(service.collector.ip(), nowNanos, responder.qps);
        final ResponderQp qp = new ResponderQp(service.collector, service.region, service.memory, count, qpn, 0, 0);
        qpns.addQp();
        responder.add(qp);
        return qp;
    }

    private void accept(
        final ResponderQp qp,
        final int peerQpn,
        final long peerCommId,
        final long tid,
        final long nowNanos,
        final ResponseSink out)
    {
        responder.count(ResponderCounter.CM_REQS_ACCEPTED);
        if (qp.cmEverConnected)
        {
            // A new connection of a QP that had one: a fresh QPN, the old one in time-wait (with the old connection's
            // local ACK timeout), so that a late request of the old connection is dropped, never executed here.
            qpns.enter(qp.collector.ip(), qp.qpn, nowNanos, nowNanos + Math.max(1, qp.ackTimeoutNanos));
            qp.qpn = qpns.allocate(qp.collector.ip(), nowNanos, responder.qps);
        }
        qp.cmEverConnected = true;
        qp.connect(peerQpn, req.startingPsn());
        qp.connection = ResponderQp.Connection.REP_SENT;
        qp.cmRemoteCommId = peerCommId;
        qp.cmTransactionId = tid;
        qp.cmLocalCommId = 1 + random.nextLong(0xFFFF_FFFEL);
        qp.sendPsn = random.nextInt(1 << 24);
        qp.cmTimeoutNanos = CmReqFlyweight.timeoutNanos(req.localCmResponseTimeout());
        qp.ackTimeoutNanos = CmReqFlyweight.timeoutNanos(req.primaryLocalAckTimeout());
        qp.cmRetriesLeft = req.maxCmRetries();
        qp.sendRetries = req.retryCount();
        qp.cmMaxRetries = req.maxCmRetries();
        qp.cmDisconnected = false;
        qp.cmDeadlineNanos = nowNanos + qp.cmTimeoutNanos;
        // IBA: the REP grants at most the REQ's initiator depth, and at most the atomics the QP can replay (or what
        // the collector was told to grant).
        qp.cmResponderResources = Math.min(req.initiatorDepth(), maxResponderResources);
        sendRep(qp, out);
    }

    private void onRtu(final int collectorIp, final long nowNanos, final ResponseSink out)
    {
        rtu.wrap(mad.buffer(), mad.dataOffset());
        final ResponderQp qp = match(collectorIp, rtu.localCommId(), rtu.remoteCommId());
        if (null == qp || ResponderQp.Connection.REP_SENT != qp.connection)
        {
            responder.count(ResponderCounter.CM_UNMATCHED);
            return;
        }
        responder.count(ResponderCounter.CM_RTUS);
        established(qp, nowNanos, out);
    }

    private void onRej(final int collectorIp)
    {
        rej.wrap(mad.buffer(), mad.dataOffset());
        final ResponderQp qp = match(collectorIp, rej.localCommId(), rej.remoteCommId());
        if (null == qp || ResponderQp.Connection.REP_SENT != qp.connection)
        {
            responder.count(ResponderCounter.CM_UNMATCHED);
            return;
        }
        responder.count(ResponderCounter.CM_REJS_IN);
        listen(qp);
    }

    private void onDreq(final int collectorIp, final ResponseSink out)
    {
        dreq.wrap(mad.buffer(), mad.dataOffset());
        final long peerCommId = dreq.localCommId();
        final long ownCommId = dreq.remoteCommId();
        final int qpn = dreq.remoteQpn();
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.negotiated && qp.collector.ip() == collectorIp && qp.qpn == qpn &&
                qp.cmRemoteCommId == peerCommId && qp.cmLocalCommId == ownCommId)
            {
                if (ResponderQp.Connection.LISTEN != qp.connection)
                {
                    // Also while our own DREQ is out (both ends disconnecting at once): IBA answers it with a DREP.
                    responder.count(ResponderCounter.CM_DREQS_IN);
                    listen(qp);
                    qp.cmDisconnected = true;
                    sendDrep(qp, out);
                    return;
                }
                if (qp.cmDisconnected)
                {
                    responder.count(ResponderCounter.CM_DUPLICATE_DREQS);
                    sendDrep(qp, out);
                    return;
                }
            }
        }
        responder.count(ResponderCounter.CM_UNMATCHED_DISCONNECTS);
    }

    private void onDrep(final int collectorIp)
    {
        drep.wrap(mad.buffer(), mad.dataOffset());
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.negotiated && qp.collector.ip() == collectorIp &&
                ResponderQp.Connection.DREQ_SENT == qp.connection && qp.cmRemoteCommId == drep.localCommId() &&
                qp.cmLocalCommId == drep.remoteCommId() && qp.cmDreqTransactionId == mad.transactionId())
            {
                responder.count(ResponderCounter.CM_DREPS_IN);
                listen(qp);
                qp.cmDisconnected = true;
                return;
            }
        }
        responder.count(ResponderCounter.CM_UNMATCHED_DISCONNECTS);
    }

    /**
     * The collector ends a connection: the QP executes nothing more (requests are dropped as not connected) and a
     * DREQ names the connection to the translator, which answers with a DREP and, as for a QP in the error state,
     * connects again.
     *
     * @return false (nothing sent) unless the QP is negotiated and connected (its REP accepted by an RTU or a first
     * request).
     */
    boolean disconnect(final ResponderQp qp, final long nowNanos, final ResponseSink out)
    {
        if (!qp.negotiated || ResponderQp.Connection.LISTEN == qp.connection ||
            ResponderQp.Connection.REP_SENT == qp.connection || ResponderQp.Connection.DREQ_SENT == qp.connection)
        {
            return false;
        }
        qp.connection = ResponderQp.Connection.DREQ_SENT;
        qp.state = ResponderQp.State.IDLE;
        qp.cmDreqTransactionId = random.nextLong();
        qp.cmRetriesLeft = qp.cmMaxRetries;
        qp.cmDeadlineNanos = nowNanos + qp.cmTimeoutNanos;
        sendDreq(qp, out);
        return true;
    }

    private ResponderQp match(final int collectorIp, final long peerCommId, final long ownCommId)
    {
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.negotiated && qp.collector.ip() == collectorIp && qp.connection != ResponderQp.Connection.LISTEN &&
                qp.cmRemoteCommId == peerCommId && qp.cmLocalCommId == ownCommId &&
                qp.cmTransactionId == mad.transactionId())
            {
                return qp;
            }
        }
        return null;
    }

    /**
     * The first valid request on a QP in RTR: IBA lets it stand in for a lost RTU.
     */
    void onFirstRequest(final ResponderQp qp, final long nowNanos, final ResponseSink out)
    {
        if (ResponderQp.Connection.REP_SENT == qp.connection)
        {
            established(qp, nowNanos, out);
        }
        else
        {
            qp.state = ResponderQp.State.READY;
        }
    }

    private void established(final ResponderQp qp, final long nowNanos, final ResponseSink out)
    {
        qp.state = ResponderQp.State.READY;
        qp.connection = ResponderQp.Connection.SEND_PENDING;
        qp.cmDeadlineNanos = nowNanos + qp.ackTimeoutNanos;
        sendMetadata(qp, out);
    }

    /**
     * An RC ACKNOWLEDGE to a hosted QP: the only request this collector's QPs send is the metadata SEND.
     */
    void onAck(final ResponderQp qp, final FrameDecoder decoder)
    {
        final AethFlyweight aeth = decoder.aeth();
        if (ResponderQp.Connection.SEND_PENDING != qp.connection || decoder.bth().psn() != qp.sendPsn ||
            !aeth.isAck())
        {
            // A NAK leaves the SEND to its timer: the only NAK a lone SEND can draw is not worth a faster retry.
            responder.count(ResponderCounter.STALE_ACKS);
            return;
        }
        responder.count(ResponderCounter.METADATA_ACKED);
        qp.connection = ResponderQp.Connection.ESTABLISHED;
        qp.cmDeadlineNanos = Long.MAX_VALUE;
    }

    /**
     * @return the earliest time {@link #poll} has work (a REP, metadata SEND or DREQ whose answer is due then), or
     * {@link Long#MAX_VALUE}.
     */
    long nextDeadline()
    {
        long next = Long.MAX_VALUE;
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.negotiated && qp.cmDeadlineNanos < next)
            {
                next = qp.cmDeadlineNanos;
            }
        }
        return next;
    }

    /**
     * Re-sends REPs and metadata SENDs whose answer is overdue, and abandons those out of retries.
     */
    void poll(final long nowNanos, final ResponseSink out)
    {
        for (final ResponderQp qp : responder.qps)
        {
            if (!qp.negotiated || nowNanos < qp.cmDeadlineNanos)
            {
                continue;
            }
            if (ResponderQp.Connection.REP_SENT == qp.connection)
            {
                if (qp.cmRetriesLeft <= 0)
                {
                    responder.count(ResponderCounter.CM_CONNECT_TIMEOUTS);
                    listen(qp);
                    continue;
                }
                qp.cmRetriesLeft--;
                qp.cmDeadlineNanos = nowNanos + qp.cmTimeoutNanos;
                responder.count(ResponderCounter.CM_REP_TIMEOUTS);
                sendRep(qp, out);
            }
            else if (ResponderQp.Connection.SEND_PENDING == qp.connection)
            {
                if (qp.sendRetries <= 0)
                {
                    responder.count(ResponderCounter.METADATA_SEND_FAILED);
                    qp.connection = ResponderQp.Connection.FAILED;
                    qp.state = ResponderQp.State.ERROR;
                    qp.cmDeadlineNanos = Long.MAX_VALUE;
                    continue;
                }
                qp.sendRetries--;
                qp.cmDeadlineNanos = nowNanos + qp.ackTimeoutNanos;
                responder.count(ResponderCounter.METADATA_SEND_TIMEOUTS);
                sendMetadata(qp, out);
            }
            else if (ResponderQp.Connection.DREQ_SENT == qp.connection)
            {
                if (qp.cmRetriesLeft <= 0)
                {
                    // IBA: without a DREP the connection is gone all the same once the timer runs out.
                    responder.count(ResponderCounter.CM_DISCONNECT_TIMEOUTS);
                    listen(qp);
                    qp.cmDisconnected = true;
                    continue;
                }
                qp.cmRetriesLeft--;
                qp.cmDeadlineNanos = nowNanos + qp.cmTimeoutNanos;
                responder.count(ResponderCounter.CM_DREQ_TIMEOUTS);
                sendDreq(qp, out);
            }
        }
    }

    /**
     * @return whether frames to this QPN at this collector address belong to a connection in time-wait.
     */
    boolean inTimeWait(final int collectorIp, final int qpn, final long nowNanos)
    {
        return qpns.inTimeWait(collectorIp, qpn, nowNanos);
    }

    private void listen(final ResponderQp qp)
    {
        qp.connection = ResponderQp.Connection.LISTEN;
        qp.state = ResponderQp.State.IDLE;
        qp.cmDeadlineNanos = Long.MAX_VALUE;
    }

    private void beginCm(final long srcMac, final int srcIp, final int attribute, final long transactionId)
    {
        cm.encoder().srcMac(srcMac).srcIp(srcIp).psn(nextMadPsn());
        cm.begin(frame, 0, attribute, transactionId, 0);
    }

    private void finishCm(final ResponderCounter sent, final ResponseSink out)
    {
        final int length = cm.finish(frame, 0);
        responder.count(sent);
        out.onResponse(frame, 0, length);
    }

    private void sendRep(final ResponderQp qp, final ResponseSink out)
    {
        beginCm(qp.collector.mac(), qp.collector.ip(), MadHeaderFlyweight.ATTRIBUTE_REP, qp.cmTransactionId);
        cm.rep()
            .localCommId(qp.cmLocalCommId)
            .remoteCommId(qp.cmRemoteCommId)
            .localQKey(0)
            .localQpn(qp.qpn)
            .startingPsn(qp.sendPsn)
            .responderResources(qp.cmResponderResources)
            .initiatorDepth(0)
            .targetAckDelay(0)
            .rnrRetryCount(7)
            .localCaGuid(CmReqFlyweight.caGuidOf(qp.collector.mac()));
        finishCm(ResponderCounter.CM_REPS_SENT, out);
    }

    private void sendDreq(final ResponderQp qp, final ResponseSink out)
    {
        beginCm(qp.collector.mac(), qp.collector.ip(), MadHeaderFlyweight.ATTRIBUTE_DREQ, qp.cmDreqTransactionId);
        cm.dreq().localCommId(qp.cmLocalCommId).remoteCommId(qp.cmRemoteCommId).remoteQpn(qp.peerQpn);
        finishCm(ResponderCounter.CM_DREQS_SENT, out);
    }

    /**
     * The DREP of the DREQ being handled (its transaction ID echoed).
     */
    private void sendDrep(final ResponderQp qp, final ResponseSink out)
    {
        beginCm(qp.collector.mac(), qp.collector.ip(), MadHeaderFlyweight.ATTRIBUTE_DREP, mad.transactionId());
        cm.drep().localCommId(qp.cmLocalCommId).remoteCommId(qp.cmRemoteCommId);
        finishCm(ResponderCounter.CM_DREPS_SENT, out);
    }

    private void reject(
        final int collectorIp, final long tid, final long peerCommId, final int reason, final ResponseSink out)
    {
        long mac = 0;
        for (final ResponderQp qp : responder.qps)
        {
            if (qp.collector.ip() == collectorIp)
            {
                mac = qp.collector.mac();
                break;
            }
        }
        beginCm(mac, collectorIp, MadHeaderFlyweight.ATTRIBUTE_REJ, tid);
        cm.rej()
            .localCommId(0)
            .remoteCommId(peerCommId)
            .messageRejected(CmRejFlyweight.REJECTED_REQ)
            .rejectInfoLength(0)
            .reason(reason);
        responder.count(ResponderCounter.CM_REQS_REJECTED);
        finishCm(ResponderCounter.CM_REJS_SENT, out);
    }

    private void sendMetadata(final ResponderQp qp, final ResponseSink out)
    {
        metadata.putLong(0, qp.base, ByteOrder.LITTLE_ENDIAN);
        metadata.putInt(8, (int)qp.length, ByteOrder.LITTLE_ENDIAN);
        metadata.putInt(12, (int)qp.rKey, ByteOrder.LITTLE_ENDIAN);
        send.srcMac(qp.collector.mac())
            .srcIp(qp.collector.ip())
            .destQp(qp.peerQpn)
            .psn(qp.sendPsn)
            .payload(metadata, 0, METADATA_LENGTH);
        final int length = send.encode(frame, 0);
        responder.count(ResponderCounter.METADATA_SENDS);
        out.onResponse(frame, 0, length);
    }

    private int nextMadPsn()
    {
        final int psn = madPsn;
        madPsn = Psn.next(madPsn);
        return psn;
    }
}
