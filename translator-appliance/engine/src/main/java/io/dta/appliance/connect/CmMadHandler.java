package io.dta.appliance.connect;

import io.dta.codec.CmDrepFlyweight;
import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;

/**
 * The collector's CM MADs to the appliance's QP1: a REP (matched by transaction ID and echoed communication ID,
 * checked, answered with the RTU, or refused with a REJ), a REJ, a DREQ (answered with a DREP) and a DREP. Anything
 * else, or anything that matches no region, is counted and dropped.
 */
final class CmMadHandler
{
    private static final int QPN_MIN = 2;
    private static final int QPN_MAX = 0xFF_FFFE;

    private final ApplianceConfig config;
    private final RegionConnection[] connections;
    private final FrameDecoder decoder;
    private final ConnectionCounts counts;
    private final CmFrameSender frames;
    private final long sendWaitNanos;
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();

    /**
     * @param config        the configuration (its collectors are the MADs' known sources).
     * @param connections   the negotiated regions.
     * @param decoder       the manager's decoder (the MAD just decoded).
     * @param counts        where to count.
     * @param frames        where answers go.
     * @param sendWaitNanos how long after the REP the collector's metadata SEND may take.
     */
    CmMadHandler(
        final ApplianceConfig config,
        final RegionConnection[] connections,
        final FrameDecoder decoder,
        final ConnectionCounts counts,
        final CmFrameSender frames,
        final long sendWaitNanos)
    {
        this.config = config;
        this.connections = connections;
        this.decoder = decoder;
        this.counts = counts;
        this.frames = frames;
        this.sendWaitNanos = sendWaitNanos;
    }

    /**
     * The UD SEND to QP1 just decoded.
     */
    void onMad(final long nowNanos)
    {
        if (!decoder.icrcValid())
        {
            counts.count(ConnectionCounter.BAD_ICRC);
            return;
        }
        if (decoder.payloadLength() < MadHeaderFlyweight.MAD_LENGTH ||
            DethFlyweight.GSI_Q_KEY != decoder.deth().qKey())
        {
            counts.count(ConnectionCounter.BAD_MADS);
            return;
        }
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        if (!mad.isCmSend())
        {
            counts.count(ConnectionCounter.BAD_MADS);
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
            counts.count(ConnectionCounter.UNKNOWN_SOURCE);
            return;
        }
        switch (mad.attributeId())
        {
            case MadHeaderFlyweight.ATTRIBUTE_REP -> onRep(srcIp, nowNanos);
            case MadHeaderFlyweight.ATTRIBUTE_REJ -> onRej(srcIp);
            case MadHeaderFlyweight.ATTRIBUTE_DREQ -> onDreq(srcIp, nowNanos);
            case MadHeaderFlyweight.ATTRIBUTE_DREP -> onDrep(srcIp);
            default -> counts.count(ConnectionCounter.UNSUPPORTED_MADS);
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
            counts.count(ConnectionCounter.UNMATCHED_MADS);
            return;
        }
        final int qpn = rep.localQpn();
        switch (c.state)
        {
            case REQ_SENT -> onFirstRep(c, qpn, nowNanos);
            case RTU_SENT, CONNECTED ->
            {
                if (rep.localCommId() != c.remoteCommId || qpn != c.remoteQpn ||
                    rep.startingPsn() != c.remoteStartPsn)
                {
                    counts.count(ConnectionCounter.INVALID_REPS);
                    return;
                }
                counts.count(ConnectionCounter.DUPLICATE_REPS);
                frames.sendRtu(c, nowNanos);
            }
            default -> counts.count(ConnectionCounter.UNMATCHED_MADS);
        }
    }

    /**
     * The REP of a REQ: checked (a valid QPN, responder resources for the atomics asked), then the RTU.
     */
    private void onFirstRep(final RegionConnection c, final int qpn, final long nowNanos)
    {
        if (qpn < QPN_MIN || qpn > QPN_MAX)
        {
            counts.count(ConnectionCounter.INVALID_REPS);
            frames.sendRej(c, rep.localCommId(), CmRejFlyweight.REASON_UNSUPPORTED_REQUEST, nowNanos);
            counts.fail(c, String.format("REP with invalid QPN 0x%06x", qpn));
            return;
        }
        final int granted = rep.responderResources();
        if (c.atomics > 0 && 0 == granted)
        {
            // The collector's QP would refuse every atomic: the region cannot work at all.
            counts.count(ConnectionCounter.INVALID_REPS);
            frames.sendRej(c, rep.localCommId(), CmRejFlyweight.REASON_INSUFFICIENT_RESPONDER_RESOURCES, nowNanos);
            counts.fail(c, "REP grants 0 outstanding atomics (responder resources), keyIncrement." +
                "maxOutstandingAtomics is " + c.atomics + ": set it to at most 0 (the collector accepts no " +
                "atomics: give its QP responder resources)");
            return;
        }
        counts.count(ConnectionCounter.REPS);
        // As rdma-core does, run with what the collector grants when it is less than asked: its QP would
        // refuse (or forget the replies of) the atomics beyond that. Never more than asked (IBA).
        c.atomicsLimit = Math.min(granted, c.atomics);
        if (c.atomicsReduced())
        {
            counts.count(ConnectionCounter.ATOMICS_REDUCED);
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
        frames.sendRtu(c, nowNanos);
    }

    private void onRej(final int srcIp)
    {
        rej.wrap(mad.buffer(), mad.dataOffset());
        final RegionConnection c = match(srcIp, rej.remoteCommId());
        if (null == c || (RegionConnection.State.REQ_SENT != c.state && RegionConnection.State.RTU_SENT != c.state))
        {
            counts.count(ConnectionCounter.UNMATCHED_MADS);
            return;
        }
        counts.count(ConnectionCounter.REJS);
        counts.fail(c, "rejected by the collector: " + CmRejFlyweight.reasonName(rej.reason()) + " (REJ reason " +
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
                counts.count(ConnectionCounter.DREQS_IN);
                c.disconnectedByCollector = RegionConnection.State.CONNECTED == c.state;
                c.state = RegionConnection.State.DISCONNECTED;
                c.deadlineNanos = Long.MAX_VALUE;
                frames.sendDrep(c, mad.transactionId(), nowNanos);
                return;
            }
            if (RegionConnection.State.DISCONNECTED == c.state)
            {
                counts.count(ConnectionCounter.DUPLICATE_DREQS);
                frames.sendDrep(c, mad.transactionId(), nowNanos);
                return;
            }
        }
        counts.count(ConnectionCounter.UNMATCHED_DISCONNECTS);
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
                counts.count(ConnectionCounter.DREPS);
                c.state = RegionConnection.State.DISCONNECTED;
                c.deadlineNanos = Long.MAX_VALUE;
                return;
            }
        }
        counts.count(ConnectionCounter.UNMATCHED_DISCONNECTS);
    }
}
