package io.dta.appliance.live;

import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.stat.CountersFile;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.RxFrames;
import io.dta.dpdk.Mempool;
import io.dta.appliance.engine.worker.HandOffQueues;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The live DPDK data plane of one process, as one Agrona {@link Agent} on one thread: the EAL is started in {@link
 * #onStart()} (so that it pins this thread, and only this thread, to the main lcore), the ports of every role are
 * opened, and each duty cycle takes one rx burst from the last role's port (the collector link), runs the timers of
 * the subclass, takes one rx burst from every other port (reading each frame in place in its mbuf), answers ARP
 * requests for the process's own addresses, hands every other frame to the subclass, and sends what was queued in one
 * tx burst per port. Once the links are up, a {@code net_memif} client port whose link goes down (its server's
 * process stopped or restarted) is stopped and started again every 100 ms until it is back
 * ({@link ReconnectingLink}): DPDK 22.11 connects a memif client only when it starts.
 * <p>
 * Stopping: {@link #requestStop()} (from a signal handler, any thread) makes the next duty cycle start draining:
 * {@link #startDrain(long)} (flush partial batches), then duty cycles go on until {@link #drained()} or the drain time
 * is over, then {@link #startClosing(long)} (say goodbye to peers, e.g. disconnect) and duty cycles go on until
 * {@link #closingDone()} or the time it returned is over, and the agent terminates; {@link #onClose()} sends what is left and closes ports, pool and EAL.
 * <p>
 * Counters: the subclass allocates its own in the counters file in its constructor; this class adds the ARP, pool and
 * port counters when it starts. Every stats interval (and at the end) the heartbeat of the counters file, the ports'
 * device statistics, the tx ring drops and the ARP counts are written to the shared-memory counters file.
 */
public abstract class LiveAgent implements Agent
{

    /** Agrona counter type id of the data plane's own counters (ARP, pool, duty cycles). */
    public static final int TYPE_ID = 0x0D7A_0003;

    private static final long LINK_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LiveSettings settings;
    private final String[] roles;
    private final CountersFile countersFile;
    private final ArpResponder arp;
    private final MbufArray rx;
    private final RxFrames rxFrames;
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer arpReply = new UnsafeBuffer(ByteBuffer.allocateDirect(ArpResponder.MIN_FRAME_LENGTH +
        ArpResponder.MAX_REPLY_LENGTH));
    private final long statsIntervalNanos;
    private AtomicCounter arpAnswered;
    private AtomicCounter arpIgnored;
    private AtomicCounter claimFailures;
    private AtomicCounter dutyCycles;
    private AtomicCounter handOverDrops;
    private final StopRequests stops = new StopRequests();

    private Eal eal;
    private Mempool pool;
    private LivePorts lp;
    // Worker 0's data plane (a translator's): the same worker loop as the others', its control frames handled here.
    private WorkerAgent own;
    private LatencyCounters latency;
    private Path latencyLog;
    private PortCounters[] portCounters;
    private ReconnectingLink[] reconnectingLinks;
    private long nextLinkWatch;
    private MbufFrameSink sink;
    private boolean linksReady;
    private long linkDeadline;
    private long nextLinkCheck;
    private long nextStats;
    private boolean draining;
    private long drainDeadline;
    private boolean closing;
    private boolean drainComplete = true;
    private long closingDeadline;
    private long cycles;
    private boolean closed;
    private final int dataRoom;
    private final int portMtu;
    // Workers 1..W-1 (worker 0 is this agent): their frames for worker 0 (ARP, connection set-up) cross these.
    private HandOffQueues control;
    private static final WorkerAgent[] NO_WORKERS = new WorkerAgent[0];
    private LiveWorkers workers;
    private final MessageHandler controlHandler = this::onControlFrame;
    private long controlNowNanos;

    /**
     * @param settings     EAL arguments, ports, timings.
     * @param roles        the role of each port spec, e.g. {@code reports} and {@code collector link}.
     * @param countersFile where the counters live (the caller creates and closes it).
     * @param arp          the ARP responder for this process's addresses.
     * @param largestFrame the longest frame this process sends or takes ({@code FrameLimits.largestFrame}): the
     *                     pool's mbufs hold one in a single segment, and the ports are opened with an MTU that
     *                     carries it when the default one does not ({@link #LivePortSpecs.portMtu(int)}).
     */
    protected LiveAgent(
        final LiveSettings settings,
        final String[] roles,
        final CountersFile countersFile,
        final ArpResponder arp,
        final int largestFrame)
    {
        if (roles.length != settings.portSpecs().size())
        {
            throw new IllegalArgumentException("one port spec per role " + List.of(roles));
        }
        this.settings = settings;
        this.roles = roles.clone();
        this.countersFile = countersFile;
        this.arp = arp;
        this.portMtu = LivePortSpecs.portMtu(largestFrame);
        this.dataRoom = LivePortSpecs.poolDataRoom(largestFrame);
        this.rx = new MbufArray(settings.burst());
        this.rxFrames = new RxFrames(settings.burst());
        this.statsIntervalNanos = TimeUnit.MILLISECONDS.toNanos(settings.statsIntervalMillis());
    }

    /**
     * Called on the data-plane thread once the EAL runs and the ports are open.
     *
     * @param sink where frames go.
     */
    protected abstract void onStarted(MbufFrameSink sink);

    /**
     * Runs the subclass's timers.
     *
     * @param nowNanos the clock ({@link System#nanoTime()}).
     * @return work done.
     */
    protected abstract int timers(long nowNanos);

    /**
     * One received frame that is not ARP.
     *
     * @param role     index of the role of the port it came in on.
     * @param frame    the frame, in place in its mbuf (valid during the call only).
     * @param nowNanos the clock.
     */
    protected abstract void onFrame(int role, UnsafeBuffer frame, long nowNanos);

    /**
     * Whether to read a role's port in this duty cycle.
     *
     * @param role       the role.
     * @param linksReady every link is up (or the link wait is over).
     * @param draining   a stop was requested.
     * @return true to take an rx burst from it.
     */
    protected abstract boolean reads(int role, boolean linksReady, boolean draining);

    /**
     * A stop was requested: flush what is held.
     *
     * @param nowNanos the clock.
     */
    protected abstract void startDrain(long nowNanos);

    /**
     * @return true when nothing is left to send or wait for after a stop.
     */
    protected abstract boolean drained();

    /**
     * The drain is over (or its time is): the last exchange with peers before the agent terminates (the translator
     * disconnects its negotiated regions). Duty cycles go on, the links are read, until {@link #closingDone()} or the
     * returned time is over. By default nothing.
     *
     * @param nowNanos the clock.
     * @return how long the closing exchange may take, in nanoseconds.
     */
    protected long startClosing(final long nowNanos)
    {
        return 0;
    }

    /**
     * @return true when the closing exchange begun by {@link #startClosing(long)} is over (by default at once).
     */
    protected boolean closingDone()
    {
        return true;
    }

    /**
     * @return true once {@link #startClosing(long)} was called.
     */
    protected boolean closing()
    {
        return closing;
    }

    /**
     * Writes the subclass's counters that are not written as they change (called at every stats tick and at the
     * end).
     */
    /**
     * @return what this process's status lines start with: the command that runs it ({@code dta run},
     * {@code dta collector}), as its EAL and drain lines do, so a log can be searched by command; {@code dta} here.
     */
    public String messagePrefix()
    {
        return "dta";
    }

    protected abstract void publish();

    /**
     * {@inheritDoc}
     */
    @Override
    public void onStart()
    {
        StaleMemifSocket.removeStale(settings.ealArgs(), System.err, messagePrefix());
        eal = LivePortSpecs.startEal(settings.ealArgs());
        pool = Mempool.create(roleName().replace("dta-", "") + "_pool", settings.poolSize(), 256,
            dataRoom);
        lp = new LivePorts(roles, settings.burst());
        lp.open(eal, settings, pool, portMtu);
        // After the subclass's counters (allocated in its constructor), so they come first in dta stat.
        final CountersManager manager = countersFile.manager();
        arpAnswered = manager.newCounter("ARP requests answered", TYPE_ID);
        arpIgnored = manager.newCounter("ARP packets ignored (other targets, replies)", TYPE_ID);
        claimFailures = manager.newCounter("frames dropped: mbuf pool empty", TYPE_ID);
        dutyCycles = manager.newCounter("duty cycles", TYPE_ID);
        handOverDrops = manager.newCounter("frames dropped: worker hand-over full", TYPE_ID);
        portCounters = lp.portCounters(manager);
        reconnectingLinks = lp.reconnectingLinks(manager, settings.ealArgs(), portCounters, messagePrefix());
        sink = new MbufFrameSink(pool, lp.txOfRole[roles.length - 1], lp.txOfRole[0], settings.burst());
        if (translatesReports())
        {
            own = lp.newWorker(0, (role, frame, offset, length) ->
            {
                handleFrame(role, frame, offset, length, controlNowNanos);
                return true;
            });
        }
        if (translatesReports() && settings.workers() > 1)
        {
            control = new HandOffQueues(settings.workers(), 1 << 20);
            workers = LiveWorkers.start(eal, settings.workers(), lp, control);
        }
        if (translatesReports())
        {
            latency = new LatencyCounters(countersFile.manager(), settings.workers(), latencyLog,
                System.currentTimeMillis());
            final WorkerAgent[] agents = null == workers ? new WorkerAgent[1] : workers.agents().clone();
            agents[0] = own;
            latency.attach(agents);
        }
        final long now = System.nanoTime();
        linkDeadline = now + TimeUnit.MILLISECONDS.toNanos(settings.linkWaitMillis());
        linksReady = 0 == settings.linkWaitMillis();
        onStarted(sink);
    }

    /**
     * Writes an HdrHistogram interval log of the reports' latency ({@link LatencyCounters}); set before the start.
     *
     * @param file the log file.
     */
    public void latencyLog(final Path file)
    {
        latencyLog = file;
    }

    /**
     * @return true for an agent whose worker 0 runs the translator's worker loop ({@link WorkerAgent}); the soft
     * collector's agent reads its ports itself.
     */
    protected boolean translatesReports()
    {
        return false;
    }

    /**
     * Gives worker 0's loop its engine (a translator's, once connection set-up is over).
     *
     * @param engine worker 0's engine.
     */
    protected void startOwn(final TranslatorEngine engine)
    {
        own.start(engine);
    }

    /**
     * @return worker 0's loop, or null for an agent that reads its ports itself.
     */
    protected WorkerAgent own()
    {
        return own;
    }

    /**
     * @return the workers 1..W-1 at their indexes (index 0 empty: this agent), none with one worker.
     */
    protected WorkerAgent[] workers()
    {
        return null == workers ? NO_WORKERS : workers.agents();
    }

    /**
     * Makes a frame sink for worker {@code w} over its own tx queues of the ports of the roles (the queues its loop
     * flushes every duty cycle).
     *
     * @param w the worker, 1 or more.
     * @return the worker's frame sink.
     */
    protected MbufFrameSink workerSink(final int w)
    {
        return lp.workerSink(pool, w);
    }

    /**
     * @return the pool of every port's mbufs.
     */
    protected Mempool pool()
    {
        return pool;
    }

    private void onControlFrame(final int type, final MutableDirectBuffer buffer, final int offset, final int length)
    {
        handleFrame(type - 1, buffer, offset, length, controlNowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int doWork()
    {
        final long now = System.nanoTime();
        if (stops.requested() && !draining)
        {
            draining = true;
            drainDeadline = now + TimeUnit.MILLISECONDS.toNanos(settings.drainMillis());
            startDrain(now);
        }
        if (!linksReady && now - nextLinkCheck >= 0)
        {
            checkLinks(now);
        }
        int work = 0;
        if (linksReady && reconnectingLinks.length > 0 && now - nextLinkWatch >= 0)
        {
            nextLinkWatch = now + ReconnectingLink.RETRY_NANOS;
            for (final ReconnectingLink link : reconnectingLinks)
            {
                work += link.watch(now);
            }
        }
        work += null != own ? ownCycle(now) : readCycle(now);
        cycles++;
        if (now - nextStats >= 0)
        {
            nextStats = now + statsIntervalNanos;
            tick();
        }
        if (draining && (closing || drained() || stops.atOnce() || now - drainDeadline >= 0))
        {
            if (!closing)
            {
                closing = true;
                drainComplete = drained();
                closingDeadline = now + startClosing(now);
            }
            if (closingDone() || stops.atOnce() || now - closingDeadline >= 0)
            {
                throw new AgentTerminationException(true);
            }
        }
        return work;
    }

    /**
     * A translator's duty cycle: worker 0's loop (responses, the engine's timers, reports, tx bursts; its ARP and
     * set-up frames to {@link #handleFrame}), then the set-up and reconnection timers and the other workers' control
     * frames. Reports are held until the links are up.
     */
    private int ownCycle(final long now)
    {
        own.holdReports(!linksReady);
        controlNowNanos = now;
        int work = own.doWork();
        work += timers(now);
        if (null != control)
        {
            work += control.drain(0, controlHandler, settings.burst());
        }
        return work;
    }

    /**
     * The soft collector's duty cycle: the collector link (the last role's port) before the timers, so that after a
     * stall of this thread what waits in its rx ring is seen before a timer fires; then the other ports; then the tx
     * bursts.
     */
    private int readCycle(final long now)
    {
        int work = 0;
        final int last = roles.length - 1;
        final int linkRole = lp.firstRoleOf(last);
        if (readsPort(linkRole))
        {
            work += receive(linkRole, now);
        }
        work += timers(now);
        if (null != control)
        {
            controlNowNanos = now;
            work += control.drain(0, controlHandler, settings.burst());
        }
        for (int r = 0; r < roles.length; r++)
        {
            if (r != linkRole && lp.isFirstRoleOfPort(r) && readsPort(r))
            {
                work += receive(r, now);
            }
        }
        for (int r = 0; r < roles.length; r++)
        {
            if (lp.isFirstRoleOfPort(r))
            {
                work += lp.txOfRole[r].flush();
            }
        }
        return work;
    }

    /**
     * A port is read when any role on it wants it read, and it is started (a memif client whose restart failed is
     * stopped until the next attempt: DPDK logs every burst on a stopped port).
     */
    private boolean readsPort(final int firstRole)
    {
        if (!lp.portOfRole[firstRole].started())
        {
            return false;
        }
        for (int r = firstRole; r < roles.length; r++)
        {
            if (lp.portOfRole[r] == lp.portOfRole[firstRole] && reads(r, linksReady, draining))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A burst from every rx queue of the port of a role (the soft collector's port has one queue per translator
     * worker; whatever it answers leaves on queue 0).
     */
    private int receive(final int role, final long now)
    {
        final EthPort port = lp.portOfRole[role];
        final int handedRole = lp.roleOf(port, role);
        int work = 0;
        for (int q = 0; q < port.queues(); q++)
        {
            final int n = port.rxBurst(q, rx, rxFrames, settings.burst());
            for (int i = 0; i < n; i++)
            {
                frame.wrap(rxFrames.address(i), rxFrames.length(i));
                handleFrame(handedRole, frame, 0, frame.capacity(), now);
            }
            Mempool.freeBulk(rx, n);
            work += n;
        }
        return work;
    }

    /**
     * One frame, received here or handed over by another worker: ARP answered, anything else to the subclass.
     */
    private void handleFrame(
        final int role, final DirectBuffer buffer, final int offset, final int length, final long now)
    {
        final int reply = arp.onFrame(buffer, offset, length, arpReply, 0);
        if (ArpResponder.NOT_ARP == reply)
        {
            if (buffer != frame || 0 != offset)
            {
                frame.wrap(buffer, offset, length);
            }
            onFrame(role, frame, now);
        }
        else if (reply > 0)
        {
            sink.send(lp.txOfRole[lp.firstRoleOf(role)], arpReply, 0, reply);
        }
    }

    private void checkLinks(final long now)
    {
        nextLinkCheck = now + LINK_POLL_NANOS;
        final String down = lp.linksDown();
        if (down.isEmpty())
        {
            linksReady = true;
        }
        else if (now - linkDeadline >= 0)
        {
            linksReady = true;
            // Once, at start-up: not the hot path.
            System.err.println(messagePrefix() + ": link still down after " + settings.linkWaitMillis() + " ms:" + down +
                "; running anyway");
        }
    }

    private void tick()
    {
        countersFile.heartbeat(System.currentTimeMillis());
        for (final PortCounters c : portCounters)
        {
            c.update();
        }
        arpAnswered.setRelease(arp.requestsAnswered());
        arpIgnored.setRelease(arp.ignored());
        claimFailures.setRelease(sink.claimFailures());
        dutyCycles.setRelease(cycles);
        long dropped = 0;
        for (final WorkerAgent worker : workers())
        {
            dropped += null == worker ? 0 : worker.controlDrops() + worker.framesBeforeEngine();
        }
        handOverDrops.setRelease(dropped);
        if (null != latency)
        {
            latency.tick(System.currentTimeMillis());
        }
        publish();
    }

    /**
     * Sends what is left, writes the final counters, and closes the ports, the pool and the EAL.
     */
    @Override
    public void onClose()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (null != workers)
        {
            workers.stop(this::fail);
        }
        try
        {
            if (null != sink && null != portCounters)
            {
                for (int r = 0; r < roles.length; r++)
                {
                    if (lp.isFirstRoleOfPort(r))
                    {
                        lp.txOfRole[r].flush();
                    }
                }
                tick();
                sink.close();
            }
            if (null != latency)
            {
                latency.close();
            }
            for (final EthPort port : lp.ports)
            {
                port.close();
            }
            if (null != pool)
            {
                pool.close();
            }
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
        }
        finally
        {
            if (null != eal)
            {
                eal.close();
            }
        }
    }

    /**
     * Asks the data plane to drain and stop; safe from any thread (a signal handler). A second request (Ctrl-C
     * again) cuts the drain and the closing exchange short: the agent stops at its next duty cycle, still closing
     * ports, pool and EAL and writing the final counters. The same stop delivered twice is one stop
     * ({@link StopRequests}).
     */
    public void requestStop()
    {
        stops.request(System.nanoTime());
    }

    /**
     * Records a failure (the first one wins) and asks the data plane to stop.
     *
     * @param error what went wrong.
     */
    public void fail(final Throwable error)
    {
        stops.fail(error);
    }

    /**
     * @return the first failure, or null.
     */
    public Throwable failure()
    {
        return stops.failure();
    }

    /**
     * @return false when the drain after a stop ended because its time ({@code --drain-ms}) ran out, with frames
     * still held or unacknowledged; true when it ended quiescent (or has not ended).
     */
    public boolean drainComplete()
    {
        return drainComplete;
    }

    /**
     * @return true when a second stop request ended the drain (or the closing exchange) before its time.
     */
    public boolean stoppedAtOnce()
    {
        return stops.atOnce();
    }

    /**
     * @return the ports' counters (after the run: their final statistics), one per distinct port.
     */
    public PortCounters[] portCounters()
    {
        return null == portCounters ? new PortCounters[0] : portCounters.clone();
    }

    /**
     * @return the ARP responder.
     */
    public ArpResponder arp()
    {
        return arp;
    }

    /**
     * @return frames dropped because the pool was empty.
     */
    public long claimFailures()
    {
        return null == sink ? 0 : sink.claimFailures();
    }

    /**
     * @return true once every link is up (or the link wait is over).
     */
    protected boolean linksReady()
    {
        return linksReady;
    }

    /**
     * @return the port of a role, once started.
     */
    protected TxQueue txQueue(final int role)
    {
        return lp.txOfRole[role];
    }
}
