package io.dta.collector.responder;

import io.dta.codec.AethFlyweight;
import io.dta.codec.BthFlyweight;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MalformedReason;
import io.dta.codec.Psn;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import io.dta.config.TranslatorConfig;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A software RoCEv2 RC responder for the soft collector (translation.md §9, rocev2-reference.md §3), modelled on
 * Linux soft-RoCE (rxe): responder QPs for every hosted region (see {@link ResponderQp#index()}: a static region's
 * own QP and one per {@code workerQueuePairs} entry, a negotiated region's QP per accepted connection, all of a
 * region over its one memory, each with its own PSN, MSN and state), RDMA WRITE (First/Middle/Last/Only), FETCH_ADD and
 * COMPARE_SWAP, with ACK, NAK and ATOMIC ACK responses.
 * <p>
 * Pipeline of one frame, each failure counted under its {@link ResponderCounter}:
 * <ol>
 *     <li>Silent drops (no response): not RoCEv2, malformed, TVer ≠ 0, bad IPv4 header checksum or wrong non-zero
 *     UDP checksum, bad ICRC, non-RC opcode, RC opcode that is not a request, unknown DestQP or one in time-wait
 *     (a negotiated QP's number before its last reconnection, see {@link ResponderQp#qpn()}), IPv4 destination
 *     not the QP's collector, IPv4 source not the translator, P_Key mismatch, QP in the error state.</li>
 *     <li>PSN against the expected PSN (24-bit serial comparison): <em>ahead</em> → one NAK 0x60 carrying the
 *     expected PSN, then silence until the expected PSN arrives; <em>behind</em> → duplicate: a WRITE is not
 *     re-executed but re-ACKed with PSN ePSN − 1, an atomic is answered from its saved result (the last
 *     {@value ResponderQp#SAVED_ATOMICS}) or dropped when none is saved, a READ is dropped (none is ever
 *     executed, so no READ resource is saved).</li>
 *     <li>Opcode order (no MIDDLE/LAST outside a message, nothing else inside one), an RNR NAK (QP unchanged) for
 *     requests that need a receive WQE (SEND, WRITE with immediate: there is no receive queue), supported
 *     operation, lengths against the path MTU and PadCnt, then R_Key and bounds (skipped for a zero-length
 *     WRITE), atomic 8-byte alignment. Failures send NAK 0x61 (invalid request) or 0x62 (remote access) with the request's PSN and put
 *     the QP in the error state, as a real RC responder does.</li>
 *     <li>Execute: WRITE copies the payload verbatim to {@code VA - base}; atomics run on little-endian (x86 host
 *     order) memory. A completed message increments the MSN; the expected PSN advances.</li>
 *     <li>Acknowledge: a WRITE only when it carries AckReq (ACK PSN = its PSN, coalescing the unrequested ones
 *     before it); an atomic always, with an ATOMIC ACK carrying the original value big-endian.</li>
 * </ol>
 * Responses go from the collector's MAC and IP to the translator's (its {@code translator.mac/ip}), UDP source port
 * {@link #RESPONSE_SOURCE_PORT} to 4791, DestQP = the translator's QPN of the region, MigReq set, P_Key, DSCP, ECN
 * and TTL as the translator uses, IPv4 identification 0, and a correct ICRC ({@code AckSender}). This class checks a
 * frame and its QP and sequence; {@code RequestExecutor} executes the request and answers duplicates.
 * <p>
 * Negotiated QPs (regions with a {@code servicePort}) start idle and are connected by the CM exchange on QP1
 * (translation.md §8): see {@link ResponderQp.Connection} and {@link #poll(long, ResponseSink)}. RC ACKs to a
 * hosted QP acknowledge its metadata SEND; every other ACK is counted as stale.
 * <p>
 * Zero allocation per frame; single-threaded.
 */
public final class SoftResponder
{
    /** UDP source port of every response (responders use their own port, receivers do not check it). */
    public static final int RESPONSE_SOURCE_PORT = 0xD001;

    /** Default of {@link #maxConnectionsPerRegion(int)}: the workers an appliance can run. */
    public static final int DEFAULT_CONNECTIONS_PER_REGION = 64;

    /** Default seed of the communication IDs and starting PSNs chosen for negotiated connections. */
    public static final long DEFAULT_CONNECTION_SEED = 0x5EED_C0DEL;

    private final TranslatorConfig translator;
    /** Every hosted QP in configuration order, then negotiated connections' further QPs as they came. */
    ResponderQp[] qps;
    private final long[] counters = new long[ResponderCounter.values().length];
    private final FrameDecoder decoder = new FrameDecoder();
    private final ConnectionResponder connections;
    private final AckSender acks;
    private final RequestExecutor executor;

    /**
     * A responder hosting every region of every collector of the configuration for which {@code memory} supplies
     * a buffer.
     *
     * @param config the configuration (translator identity, collectors and regions).
     * @param memory the regions' memory.
     */
    public SoftResponder(final ApplianceConfig config, final RegionMemory memory)
    {
        this(config, config.collectors(), memory);
    }

    /**
     * A responder hosting the regions of the given collectors.
     *
     * @param config     the configuration (translator identity).
     * @param collectors the collectors to host.
     * @param memory     the regions' memory.
     * @throws IllegalArgumentException when a region's memory is too small, or on one of {@link HostedQps#problems}.
     */
    public SoftResponder(
        final ApplianceConfig config, final List<CollectorConfig> collectors, final RegionMemory memory)
    {
        this.translator = config.translator();
        this.qps = HostedQps.of(collectors, memory);
        this.connections = new ConnectionResponder(this, translator, DEFAULT_CONNECTION_SEED);
        this.acks = new AckSender(this, translator);
        this.executor = new RequestExecutor(this, decoder, acks);
    }

    /**
     * Hosts one more QP (a negotiated region's further connection); the only allocation after start.
     */
    void add(final ResponderQp qp)
    {
        final ResponderQp[] grown = Arrays.copyOf(qps, qps.length + 1);
        grown[qps.length] = qp;
        qps = grown;
    }

    /**
     * Processes one received frame and emits its response, if any.
     *
     * @param buffer   buffer holding the frame.
     * @param offset   frame start (Ethernet header).
     * @param length   frame length (no FCS).
     * @param nowNanos receive time (connection set-up timers and time-wait).
     * @param out      where responses go.
     */
    public void onFrame(
        final DirectBuffer buffer, final int offset, final int length, final long nowNanos, final ResponseSink out)
    {
        counters[ResponderCounter.FRAMES_IN.ordinal()]++;
        final FrameKind kind = decoder.decode(buffer, offset, length);
        if (FrameKind.ROCE != kind)
        {
            countNotRoce(kind);
            return;
        }
        // The kernel under rxe drops these before rxe sees them; both fields are masked in the ICRC.
        if (!decoder.ipChecksumValid() || !decoder.udpChecksumValid())
        {
            count(ResponderCounter.BAD_CHECKSUM);
            return;
        }
        if (!decoder.icrcValid())
        {
            count(ResponderCounter.BAD_ICRC);
            return;
        }
        final int opcode = decoder.roceOpcode();
        final BthFlyweight bth = decoder.bth();
        if (RoceOpcode.UD_SEND_ONLY == opcode && DethFlyweight.GSI_QPN == bth.destQp())
        {
            connections.onMad(decoder, nowNanos, out);
            return;
        }
        if (0 != (opcode & 0xE0))
        {
            count(ResponderCounter.NON_RC_OPCODE);
            return;
        }
        final boolean ack = RoceOpcode.RC_ACKNOWLEDGE == opcode;
        if (!ack && !RequestOpcodes.isRequest(opcode))
        {
            count(ResponderCounter.UNEXPECTED_OPCODE);
            return;
        }

        final ResponderQp qp = findQp(bth.destQp(), decoder.ipv4().dst(), nowNanos);
        if (null == qp)
        {
            return;
        }
        if (decoder.ipv4().src() != translator.ip())
        {
            count(ResponderCounter.BAD_IP_SRC);
            return;
        }
        if (ack)
        {
            connections.onAck(qp, decoder);
            return;
        }
        onRequest(qp, opcode, bth, nowNanos, out);
    }

    private void countNotRoce(final FrameKind kind)
    {
        if (FrameKind.MALFORMED != kind)
        {
            count(ResponderCounter.NOT_ROCE);
            return;
        }
        final MalformedReason reason = decoder.malformedReason();
        if (MalformedReason.BAD_TVER == reason)
        {
            count(ResponderCounter.BAD_TVER);
        }
        else if (MalformedReason.UNKNOWN_ROCE_OPCODE == reason)
        {
            count(0 != (decoder.roceOpcode() & 0xE0) ?
                ResponderCounter.NON_RC_OPCODE : ResponderCounter.UNEXPECTED_OPCODE);
        }
        else
        {
            count(ResponderCounter.MALFORMED);
        }
    }

    /**
     * A request from the translator to a hosted QP: P_Key, QP state, then its PSN against the expected one.
     */
    private void onRequest(
        final ResponderQp qp, final int opcode, final BthFlyweight bth, final long nowNanos, final ResponseSink out)
    {
        if (!BthFlyweight.pKeysMatch(bth.pKey(), translator.pKey()))
        {
            count(ResponderCounter.BAD_PKEY);
            return;
        }
        if (ResponderQp.State.ERROR == qp.state)
        {
            count(ResponderCounter.QP_ERROR_DROPS);
            return;
        }
        if (ResponderQp.State.IDLE == qp.state)
        {
            count(ResponderCounter.NOT_CONNECTED);
            return;
        }

        final int psn = bth.psn();
        final int cmp = Psn.compare(psn, qp.expectedPsn);
        if (cmp > 0)
        {
            if (qp.nakSent)
            {
                count(ResponderCounter.OUT_OF_SEQUENCE_DROPPED);
            }
            else
            {
                qp.nakSent = true;
                count(ResponderCounter.OUT_OF_SEQUENCE_NAKED);
                acks.send(qp, RoceOpcode.RC_ACKNOWLEDGE, qp.expectedPsn,
                    AethFlyweight.nakSyndrome(AethFlyweight.NAK_PSN_SEQUENCE_ERROR), qp.msn, 0, out);
            }
            return;
        }
        if (cmp < 0)
        {
            executor.onDuplicate(qp, opcode, psn, out);
            return;
        }

        qp.nakSent = false;
        if (ResponderQp.State.RTR == qp.state)
        {
            connections.onFirstRequest(qp, nowNanos, out);
        }
        executor.execute(qp, opcode, psn, bth.ackReq(), out);
    }

    private ResponderQp findQp(final int destQp, final int dstIp, final long nowNanos)
    {
        boolean qpnKnown = false;
        for (final ResponderQp qp : qps)
        {
            if (qp.qpn == destQp)
            {
                if (qp.collector.ip() == dstIp)
                {
                    return qp;
                }
                qpnKnown = true;
            }
        }
        if (!qpnKnown && connections.inTimeWait(dstIp, destQp, nowNanos))
        {
            count(ResponderCounter.TIME_WAIT_DROPS);
            return null;
        }
        count(qpnKnown ? ResponderCounter.BAD_IP_DST : ResponderCounter.UNKNOWN_QPN);
        return null;
    }

    /**
     * Timers of negotiated connections: re-sends an overdue REP or metadata SEND, abandons those out of retries.
     * Call it regularly (every frame time in offline mode, a timer in a live loop); static QPs need no timers.
     *
     * @param nowNanos the current time.
     * @param out      where re-sent frames go.
     */
    public void poll(final long nowNanos, final ResponseSink out)
    {
        connections.poll(nowNanos, out);
    }

    /**
     * When {@link #poll} next has work: the earliest time a negotiated connection's REP, metadata SEND or DREQ is
     * re-sent or abandoned, for a loop on a virtual clock that jumps from one event to the next (a demo) rather
     * than polling regularly.
     *
     * @return that time, or {@link Long#MAX_VALUE} when no connection waits for an answer.
     */
    public long nextDeadline()
    {
        return connections.nextDeadline();
    }

    /**
     * Ends the connection of a negotiated QP from the collector's side (IB CM DREQ; translation.md §8): the QP
     * executes nothing more, and the DREQ is re-sent by {@link #poll} until the translator's DREP (or the last CM
     * timeout), after which the QP listens for a new REQ. The translator answers with a DREP and connects again.
     *
     * @param collectorIp the collector's IPv4 address.
     * @param qpn         the responder QPN.
     * @param nowNanos    the current time.
     * @param out         where the DREQ goes.
     * @return true if a DREQ was sent; false for an unknown or static QP or one that is not connected.
     */
    public boolean disconnect(final int collectorIp, final int qpn, final long nowNanos, final ResponseSink out)
    {
        final ResponderQp qp = qp(collectorIp, qpn);
        return null != qp && connections.disconnect(qp, nowNanos, out);
    }

    /**
     * Ends every connected negotiated QP's connection, as {@link #disconnect} does for one: what a collector does
     * when it stops, so that its translators learn at once that their QPs are gone instead of after a silence.
     *
     * @param nowNanos the current time.
     * @param out      where the DREQs go.
     * @return DREQs sent (QPs that were connected).
     */
    public int disconnectAll(final long nowNanos, final ResponseSink out)
    {
        int sent = 0;
        for (final ResponderQp qp : qps)
        {
            if (connections.disconnect(qp, nowNanos, out))
            {
                sent++;
            }
        }
        return sent;
    }

    /**
     * Stops accepting connections, as a collector does when it stops: every REQ from now on, a reconnection's
     * included, is answered with a REJ "invalid service ID" (reason 8), which is what a host answers once the
     * listener of the service is gone. Call it before {@link #disconnectAll}, so that a translator answering the
     * DREQ with a new REQ at once is refused rather than given a REP by a collector about to exit.
     *
     * @return this.
     */
    public SoftResponder stopListening()
    {
        connections.stopListening();
        return this;
    }

    /**
     * @return whether a DREQ of this collector still waits for its DREP (or for its last CM timeout).
     */
    public boolean disconnecting()
    {
        for (final ResponderQp qp : qps)
        {
            if (ResponderQp.Connection.DREQ_SENT == qp.connection)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Re-seeds the generator of communication IDs and starting PSNs of negotiated connections (tests, demos).
     *
     * @param seed the seed.
     * @return this.
     */
    public SoftResponder connectionSeed(final long seed)
    {
        connections.seed(seed);
        return this;
    }

    /**
     * Limits the responder resources (outstanding atomics) the REPs of negotiated QPs grant: min(the REQ's initiator
     * depth, {@code limit}); by default {@value ResponderQp#SAVED_ATOMICS}, the atomics a QP can replay. For tests
     * and demos of a collector whose NIC grants fewer atomics than the translator asks for. Applies to the REQs that
     * arrive from now on.
     *
     * @param limit 0..{@value ResponderQp#SAVED_ATOMICS}.
     * @return this.
     * @throws IllegalArgumentException when out of range.
     */
    public SoftResponder maxResponderResources(final int limit)
    {
        if (limit < 0 || limit > ResponderQp.SAVED_ATOMICS)
        {
            throw new IllegalArgumentException("responder resources must be 0.." + ResponderQp.SAVED_ATOMICS +
                ", was " + limit);
        }
        connections.maxResponderResources(limit);
        return this;
    }

    /**
     * Limits the connections each negotiated region serves at once, one QP each (one per translator QP writing the
     * region: an appliance's workers connect one each); by default {@value #DEFAULT_CONNECTIONS_PER_REGION}. A REQ of
     * a further connection gets a REJ "no QP available" (counted {@code cm-connection-limit-rejects}). A region keeps
     * the QPs it has; a QP whose connection ended serves the next one. Applies to the REQs that arrive from now on.
     *
     * @param limit 1 or more.
     * @return this.
     * @throws IllegalArgumentException when below 1.
     */
    public SoftResponder maxConnectionsPerRegion(final int limit)
    {
        if (limit < 1)
        {
            throw new IllegalArgumentException("connections per region must be 1 or more, was " + limit);
        }
        connections.maxConnectionsPerRegion(limit);
        return this;
    }

    void count(final ResponderCounter counter)
    {
        counters[counter.ordinal()]++;
    }

    void add(final ResponderCounter counter, final long amount)
    {
        counters[counter.ordinal()] += amount;
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final ResponderCounter counter)
    {
        return counters[counter.ordinal()];
    }

    /**
     * @return every hosted QP: in configuration order (each region's own QP, then its workers' QPs), then the further
     * QPs of negotiated regions in the order their connections came; a snapshot.
     */
    public List<ResponderQp> qps()
    {
        return List.of(qps);
    }

    /**
     * @param region a hosted region (by key path).
     * @return its QPs in {@link ResponderQp#index()} order; a snapshot, empty when not hosted.
     */
    public List<ResponderQp> qps(final RegionConfig region)
    {
        final List<ResponderQp> list = new ArrayList<>();
        for (final ResponderQp qp : qps)
        {
            if (qp.region.path().equals(region.path()))
            {
                list.add(qp);
            }
        }
        list.sort(java.util.Comparator.comparingInt(ResponderQp::index));
        return Collections.unmodifiableList(list);
    }

    /**
     * @param collectorIp the collector's IPv4 address.
     * @param qpn         the responder QPN: the QP's current one ({@link ResponderQp#qpn()}) or the one it started
     *                    with (its configured {@code qpn}, a worker's, or the first a further connection got; never
     *                    handed to another QP, so the lookup is unambiguous).
     * @return the QP, or null.
     */
    public ResponderQp qp(final int collectorIp, final int qpn)
    {
        for (final ResponderQp qp : qps)
        {
            if (qp.qpn == qpn && qp.collector.ip() == collectorIp)
            {
                return qp;
            }
        }
        for (final ResponderQp qp : qps)
        {
            if (qp.firstQpn == qpn && qp.collector.ip() == collectorIp)
            {
                return qp;
            }
        }
        return null;
    }
}
