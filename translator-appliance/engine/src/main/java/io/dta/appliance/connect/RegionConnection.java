package io.dta.appliance.connect;

import io.dta.config.CollectorConfig;
import io.dta.config.NetAddress;
import io.dta.config.RegionConfig;

/**
 * The connection set-up of one negotiated region, as the {@link ConnectionManager} drives it. Read-only to callers.
 */
public final class RegionConnection
{
    /**
     * Where the set-up stands.
     */
    public enum State
    {
        /** Not started. */
        IDLE,
        /** REQ sent, waiting for the REP (the REQ is re-sent on timeout). */
        REQ_SENT,
        /** REP accepted and RTU sent, waiting for the collector's metadata SEND. */
        RTU_SENT,
        /** Metadata SEND validated and acknowledged: the QP parameters are known. */
        CONNECTED,
        /** Given up; {@link #failure()} says why. */
        FAILED,
        /** Connected, then {@link ConnectionManager#disconnect}: DREQ sent (re-sent on timeout), waiting for the DREP. */
        DISCONNECTING,
        /**
         * The connection is over: a DREP answered the appliance's DREQ (or its last DREQ timed out), or the collector
         * sent a DREQ ({@link #disconnectedByCollector()}).
         */
        DISCONNECTED
    }

    final CollectorConfig collector;
    final RegionConfig region;
    final int atomics;
    long localCommId;
    long transactionId;
    int startPsn;
    int attempts;

    State state = State.IDLE;
    long deadlineNanos = Long.MAX_VALUE;
    int retriesLeft;
    long remoteCommId;
    int remoteQpn;
    int remoteStartPsn;
    int atomicsLimit;
    long address;
    long length;
    long rkey;
    String failure;
    String lastDrop;
    int droppedSends;
    long disconnectTransactionId;
    boolean disconnectedByCollector;

    RegionConnection(
        final CollectorConfig collector, final RegionConfig region, final long localCommId, final long transactionId)
    {
        this.collector = collector;
        this.region = region;
        this.atomics = null != collector.keyIncrement() && collector.keyIncrement().region() == region ?
            collector.keyIncrement().maxOutstandingAtomics() : 0;
        this.localCommId = localCommId;
        this.transactionId = transactionId;
        this.startPsn = region.startPsn();
    }

    /**
     * Forgets the previous attempt: new IDs and a new starting PSN, nothing learned.
     */
    void restart(final long localCommId, final long transactionId, final int startPsn)
    {
        this.localCommId = localCommId;
        this.transactionId = transactionId;
        this.startPsn = startPsn;
        state = State.IDLE;
        deadlineNanos = Long.MAX_VALUE;
        retriesLeft = 0;
        remoteCommId = 0;
        remoteQpn = 0;
        remoteStartPsn = 0;
        atomicsLimit = 0;
        address = 0;
        length = 0;
        rkey = 0;
        failure = null;
        lastDrop = null;
        droppedSends = 0;
        disconnectTransactionId = 0;
        disconnectedByCollector = false;
    }

    /**
     * @return the collector.
     */
    public CollectorConfig collector()
    {
        return collector;
    }

    /**
     * @return the region as configured (negotiated, QP parameters 0).
     */
    public RegionConfig region()
    {
        return region;
    }

    /**
     * @return the outstanding atomics the region's QP asks for: its REQ's initiator depth
     * ({@code keyIncrement.maxOutstandingAtomics}; 0 for regions written with WRITEs). A REP granting fewer (at least
     * 1) is accepted, and the QP runs with the grant: {@link #atomicsLimit()}.
     */
    public int atomics()
    {
        return atomics;
    }

    /**
     * @return the outstanding atomics the region's QP runs with: the responder resources the accepted REP of this
     * attempt granted, at most {@link #atomics()} (as rdma-core clamps to what the peer grants); 0 before the REP and
     * for regions written with WRITEs.
     */
    public int atomicsLimit()
    {
        return atomicsLimit;
    }

    /**
     * @return true when the accepted REP granted fewer outstanding atomics than {@link #atomics()}.
     */
    public boolean atomicsReduced()
    {
        return atomicsLimit > 0 && atomicsLimit < atomics;
    }

    /**
     * @return the state.
     */
    public State state()
    {
        return state;
    }

    /**
     * @return the appliance's communication ID (REQ local comm ID).
     */
    public long localCommId()
    {
        return localCommId;
    }

    /**
     * @return the transaction ID of every MAD of this attempt.
     */
    public long transactionId()
    {
        return transactionId;
    }

    /**
     * @return the starting PSN advertised in the REQ: the configured {@code startPsn} for the first attempt, a
     * random one for each reconnection.
     */
    public int startPsn()
    {
        return startPsn;
    }

    /**
     * @return set-up attempts started (1 after the first REQ, one more per reconnection).
     */
    public int attempts()
    {
        return attempts;
    }

    /**
     * @return the collector's communication ID (from its REP), 0 before.
     */
    public long remoteCommId()
    {
        return remoteCommId;
    }

    /**
     * @return the collector's QPN (from its REP), 0 before.
     */
    public int remoteQpn()
    {
        return remoteQpn;
    }

    /**
     * @return the collector's starting PSN (from its REP): the PSN of its metadata SEND.
     */
    public int remoteStartPsn()
    {
        return remoteStartPsn;
    }

    /**
     * @return the region's base address (from the metadata SEND), 0 before.
     */
    public long address()
    {
        return address;
    }

    /**
     * @return the length the collector advertised (from the metadata SEND), 0 before.
     */
    public long advertisedLength()
    {
        return length;
    }

    /**
     * @return the R_Key (from the metadata SEND), 0 before.
     */
    public long rkey()
    {
        return rkey;
    }

    /**
     * @return true when the collector ended the connection with a DREQ (state {@link State#DISCONNECTED}): the
     * {@link Reconnector} puts the QP in the error state and connects the region again.
     */
    public boolean disconnectedByCollector()
    {
        return disconnectedByCollector;
    }

    /**
     * @return why the set-up failed, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * @return the region with the learned QP parameters and the starting PSN the appliance advertised.
     * @throws IllegalStateException unless connected.
     */
    public RegionConfig connectedRegion()
    {
        if (State.CONNECTED != state)
        {
            throw new IllegalStateException(region.path() + " is not connected (" + state + ")");
        }
        return new RegionConfig(region.path(), region.localQpn(), remoteQpn, rkey, address, region.length(), startPsn,
            region.udpSourcePort(), region.servicePort());
    }

    /**
     * @return e.g. {@code collectors[0].keyWrite (10.0.0.51 service port 1337)}.
     */
    public String describe()
    {
        return region.path() + " (" + NetAddress.ipv4ToString(collector.ip()) + " service port " +
            region.servicePort() + ")";
    }

    @Override
    public String toString()
    {
        return describe() + ": " + state + (null == failure ? "" : ": " + failure);
    }
}
