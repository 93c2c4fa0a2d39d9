package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameSink;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConnectionConfig;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;

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
 * <p>
 * The parts: {@link CmFrameSender} (every frame sent), {@link CmMadHandler} (the collector's CM MADs),
 * {@link MetadataSendHandler} (the metadata SEND) and {@link ConnectedConfig} (the configuration that results); this
 * class holds the regions, starts and ends their connections and runs their timers.
 */
public final class ConnectionManager
{
    /** Length of the metadata SEND's payload. */
    public static final int METADATA_LENGTH = 16;
    /** MSN of the ACK of the metadata SEND: the first message the appliance's QP completes. */
    public static final int METADATA_MSN = 1;

    private final ApplianceConfig config;
    private final ConnectionConfig timing;
    private final RegionConnection[] connections;
    private final List<RegionConnection> connectionList;
    private final ConnectionCounts counts = new ConnectionCounts();
    private final FrameDecoder decoder = new FrameDecoder();
    private final CmFrameSender frames;
    private final CmMadHandler mads;
    private final MetadataSendHandler sends;
    private final long cmTimeoutNanos;
    private final long sendWaitNanos;
    private final SplittableRandom random;

    /**
     * @param config the configuration; its negotiated regions are connected, static ones left alone.
     * @param sink   where REQ, RTU and ACK frames go.
     * @param seed   seed of the communication IDs, transaction IDs and MAD PSNs (unique per run in production:
     *               e.g. the clock; fixed in tests).
     */
    public ConnectionManager(final ApplianceConfig config, final FrameSink sink, final long seed)
    {
        this.config = config;
        this.timing = config.connection();
        random = new SplittableRandom(seed);
        final int madPsn = random.nextInt(1 << 24);
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
        frames = new CmFrameSender(config.translator(), timing, sink, counts, madPsn);
        mads = new CmMadHandler(config, connections, decoder, counts, frames, sendWaitNanos);
        sends = new MetadataSendHandler(decoder, counts, frames);
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
        frames.sendReq(c, nowNanos);
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
                frames.sendDreq(c, nowNanos);
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
        count(ConnectionCounter.FRAMES_IN);
        if (0 == connections.length || FrameKind.ROCE != decoder.decode(buffer, offset, length))
        {
            return notMine();
        }
        final int opcode = decoder.roceOpcode();
        final int destQp = decoder.bth().destQp();
        if (RoceOpcode.UD_SEND_ONLY == opcode && DethFlyweight.GSI_QPN == destQp)
        {
            mads.onMad(nowNanos);
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
                sends.onSend(c, opcode, nowNanos);
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
                    counts.fail(c, "no REP after " + (timing.maxCmRetries() + 1) + " REQs, " + millis(cmTimeoutNanos) +
                        " apart" + dropNote(c));
                    continue;
                }
                c.retriesLeft--;
                c.deadlineNanos = nowNanos + cmTimeoutNanos;
                count(ConnectionCounter.REQ_TIMEOUTS);
                frames.sendReq(c, nowNanos);
            }
            else if (RegionConnection.State.RTU_SENT == c.state)
            {
                counts.fail(c, "no valid metadata SEND within " + millis(sendWaitNanos) + " of the REP" + dropNote(c));
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
                frames.sendDreq(c, nowNanos);
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

    void count(final ConnectionCounter counter)
    {
        counts.count(counter);
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final ConnectionCounter counter)
    {
        return counts.get(counter);
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
        return ConnectedConfig.of(config, connections);
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
