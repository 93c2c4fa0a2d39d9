package io.dta.appliance.connect;

import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.FrameSink;
import io.dta.codec.AethFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.Psn;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.config.CollectorConfig;
import io.dta.config.ConnectionConfig;
import io.dta.config.RegionConfig;
import io.dta.config.TranslatorConfig;

/**
 * The frames the requester sends during connection set-up: the CM MADs (REQ, RTU, REJ, DREQ, DREP) to the
 * collector's QP1, each with the next MAD PSN, and the RC ACK of the collector's metadata SEND. A frame the sink has
 * no room for is counted ({@link ConnectionCounter#SINK_FULL}) and not sent; the timers send it again where the
 * exchange needs it.
 */
final class CmFrameSender
{
    private static final int ACK_FRAME_LENGTH = 62;

    private final TranslatorConfig translator;
    private final ConnectionConfig timing;
    private final FrameSink sink;
    private final ConnectionCounts counts;
    private final CmFrameEncoder cm = new CmFrameEncoder();
    private final RoceFrameEncoder ack = new RoceFrameEncoder();
    private final RdmaCmHeaderFlyweight cma = new RdmaCmHeaderFlyweight();
    private int madPsn;

    /**
     * @param translator the appliance's addressing.
     * @param timing     the {@code connection} section.
     * @param sink       where frames go.
     * @param counts     where to count.
     * @param madPsn     the first MAD PSN.
     */
    CmFrameSender(
        final TranslatorConfig translator,
        final ConnectionConfig timing,
        final FrameSink sink,
        final ConnectionCounts counts,
        final int madPsn)
    {
        this.translator = translator;
        this.timing = timing;
        this.sink = sink;
        this.counts = counts;
        this.madPsn = madPsn;
        fromAppliance(cm.encoder(), translator);
        fromAppliance(ack, translator)
            .opcode(RoceOpcode.RC_ACKNOWLEDGE)
            .ackReq(false)
            .syndrome(AethFlyweight.CREDIT_INVALID)
            .msn(ConnectionManager.METADATA_MSN)
            .noPayload();
    }

    /**
     * Sets what every frame of connection set-up carries: the appliance's addresses, its DSCP/ECN, TTL and P_Key.
     */
    private static RoceFrameEncoder fromAppliance(final RoceFrameEncoder encoder, final TranslatorConfig translator)
    {
        return encoder
            .srcMac(translator.mac())
            .srcIp(translator.ip())
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos((translator.dscp() << 2) | translator.ecn())
            .ttl(translator.ttl())
            .identification(0)
            .migReq(true)
            .pKey(translator.pKey());
    }

    void sendReq(final RegionConnection c, final long nowNanos)
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

    void sendRtu(final RegionConnection c, final long nowNanos)
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
    void sendRej(final RegionConnection c, final long remoteCommId, final int reason, final long nowNanos)
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

    void sendDreq(final RegionConnection c, final long nowNanos)
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
     * The DREP of a DREQ: its transaction ID echoed.
     */
    void sendDrep(final RegionConnection c, final long transactionId, final long nowNanos)
    {
        final int at = beginCm(c, MadHeaderFlyweight.ATTRIBUTE_DREP, transactionId);
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
            counts.count(ConnectionCounter.SINK_FULL);
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
        counts.count(sent);
    }

    /**
     * The RC ACK of the collector's metadata SEND: its PSN, MSN {@value ConnectionManager#METADATA_MSN}.
     */
    void sendAck(final RegionConnection c, final int psn, final long nowNanos)
    {
        final int at = sink.claim(ACK_FRAME_LENGTH);
        if (at < 0)
        {
            counts.count(ConnectionCounter.SINK_FULL);
            return;
        }
        ack.dstMac(c.collector.mac()).dstIp(c.collector.ip()).srcPort(c.region.udpSourcePort())
            .destQp(c.remoteQpn).psn(psn);
        final int length = ack.encode(sink.buffer(), at);
        sink.commit(at, length, nowNanos, OutFrameKind.CONTROL, 0);
        counts.count(ConnectionCounter.ACKS_SENT);
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
}
