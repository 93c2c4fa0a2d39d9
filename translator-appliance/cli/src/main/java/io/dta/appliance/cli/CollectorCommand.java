package io.dta.appliance.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.io.CaptureCheck;
import io.dta.appliance.io.OutputFile;
import io.dta.appliance.io.RunFiles;
import io.dta.appliance.live.LiveCollectorAgent;
import io.dta.appliance.live.LiveRunner;
import io.dta.appliance.live.LiveSettings;
import io.dta.appliance.stat.CountersFile;
import io.dta.codec.pcap.PcapFormatException;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.collector.responder.HostedQps;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.ResponseSink;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.StoreException;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigException;
import io.dta.config.FileErrors;
import io.dta.config.NetAddress;
import io.dta.dpdk.DpdkLibrary;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta collector}: the soft collector, offline or live. Offline ({@code --in/--out}), every frame of a capture
 * goes through the RoCEv2 responder in capture order and the responses go to a capture with the request's timestamp
 * plus 1 µs. Live ({@code --port} with EAL options), the responder runs on a DPDK port until SIGINT or SIGTERM
 * ({@link LiveCollectorAgent}), with its counters in a shared-memory file that {@code dta stat --role collector}
 * reads. Either way the regions live in memory-mapped files under {@code --store}.
 */
@Command(
    name = "collector",
    header = "Run the soft RoCEv2 collector over a capture, or live on a DPDK port.",
    mixinStandardHelpOptions = true,
    description = {
        "Run the soft RoCEv2 collector over a capture of RoCEv2 frames (e.g. the output of dta replay), or live",
        "on a DPDK port (--port, with EAL options such as --vdev) until SIGINT or SIGTERM.",
        "Regions are (re)created zero-filled as memory-mapped files under --store/<collector>/. Offline, ACK, NAK",
        "and ATOMIC ACK responses are written to --out, 1 us after their request; live, they are sent back on the",
        "port, ARP requests for the collectors' IPs are answered, and the counters are in a shared-memory file",
        "(dta stat --role collector). Query the store with dta query, also while a live collector runs.",
        "Negotiated regions (servicePort) answer the connection set-up found in the capture: REQ -> REP,",
        "RTU -> metadata SEND, its ACK; REP and SEND are re-sent on capture time until answered. Their REPs grant",
        "min(the REQ's initiator depth, --max-atomics) outstanding atomics.",
        "A live --port that is a net_memif client (role=client, memif's default) whose server (dta run) goes",
        "away is stopped and started again every 100 ms until the server is back (one line each way). A memif",
        "server's socket file (socket-abstract=no) that nobody listens on, left by a killed server, is removed",
        "at start." })
public final class CollectorCommand implements Callable<Integer>
{
    /** Most queues a live port is opened with. */
    static final int MAX_QUEUES = 64;

    /** Delay between a request's timestamp and its response's. */
    public static final long RESPONSE_DELAY_NANOS = 1_000L;

    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--in", paramLabel = "ROCE.pcap", description = "offline: capture of RoCEv2 requests")
    private Path in;

    @Option(names = "--out", paramLabel = "RESPONSES.pcap",
        description = "offline: capture to write the responses to")
    private Path out;

    @Option(names = "--port", paramLabel = "PORT",
        description = "live: the DPDK port of the collector link, an ethdev port id or name (e.g. net_memif0)")
    private String port;

    @Mixin
    private EalOptions eal = new EalOptions();

    @Option(names = "--counters", paramLabel = "FILE",
        description = "live: shared-memory counters file (default: /dev/shm/dta/collector.counters)")
    private Path counters;

    @Option(names = "--idle", defaultValue = "backoff", paramLabel = "STRATEGY",
        description = "live: idle strategy, backoff (default), spin, yield or noop")
    private String idle;

    @Option(names = "--store", required = true, paramLabel = "DIR", description = "store directory")
    private Path store;

    @Option(names = "--no-progress", description = "never show the progress through --in on standard error (shown " +
        "on a terminal)")
    private boolean noProgress;

    @Option(names = "--json", description = "print the summary as one JSON object")
    private boolean json;

    @Option(names = "--queues", paramLabel = "N",
        description = "live: rx and tx queues of --port, one per translator worker that sends through it (a memif " +
            "server needs as many as its client's workers); all are read, answers leave on queue 0 (default: " +
            "workers.count of the configuration, else 1)")
    private Integer queues;

    @Option(names = "--max-atomics", paramLabel = "N",
        description =
            "negotiated regions: outstanding atomics (responder resources) the REPs grant at most, 1.." +
                ResponderQp.SAVED_ATOMICS + " (default " + ResponderQp.SAVED_ATOMICS + ": what a QP can replay); " +
            "a REQ asking for more is granted N and the translator runs its Key-Increment QP with N")
    private Integer maxAtomics;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call()
    {
        final boolean live = null != port;
        final String problem = optionProblem(live);
        if (null != problem)
        {
            System.err.println("dta collector: " + problem);
            return 2;
        }
        final IdleStrategy idleStrategy = RunCommand.idleStrategy("collector", idle);
        if (null == idleStrategy)
        {
            return 2;
        }
        final ApplianceConfig appliance = loadConfig();
        if (null == appliance)
        {
            return 2;
        }
        final int unusable = ioProblem(live);
        if (0 != unusable)
        {
            return unusable;
        }
        return serve(live, appliance, idleStrategy);
    }

    /**
     * Serves live or offline; every store and reservation closed, whatever happens.
     */
    private int serve(final boolean live, final ApplianceConfig appliance, final IdleStrategy idleStrategy)
    {
        final Map<String, CollectorStore> stores = new HashMap<>();
        final List<CollectorStore.Reservation> reservations = new ArrayList<>();
        // Offline, SIGINT and SIGTERM end the JVM through its shutdown hooks: the responses written so far are removed
        // there, in one line, as after a failed run. Live, a signal is the way to stop.
        final RunFiles files = live ? RunFiles.unguarded() : RunFiles.onSignal("collector", out, System.err);
        try
        {
            return live ? serveLive(appliance, idleStrategy, stores, reservations) :
                serveOffline(appliance, stores, reservations, files);
        }
        catch (final StoreException ex)
        {
            System.err.println("dta collector: " + ex.getMessage());
            return 1;
        }
        catch (final PcapFormatException ex)
        {
            System.err.println("dta collector: " + ex.getMessage());
            return 1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return 1;
        }
        catch (final IOException | UncheckedIOException | IllegalStateException ex)
        {
            System.err.println("dta collector: " + ex.getMessage());
            return 1;
        }
        finally
        {
            files.close();
            // The data-plane thread that filled the map for a live run has ended (joined) by now.
            for (final CollectorStore s : stores.values())
            {
                s.close();
            }
            for (final CollectorStore.Reservation r : reservations)
            {
                r.close();
            }
        }
    }

    /**
     * @return what is wrong with the options among themselves, or null.
     */
    private String optionProblem(final boolean live)
    {
        if (live ? null != in || null != out : null == in || null == out || eal.given())
        {
            return "give either --in and --out (offline) or --port with EAL options (live)";
        }
        final String badLive = !live ? null : port.isBlank() ?
            "--port must name a port (an ethdev name or a port id)" : eal.contradiction();
        if (null != badLive)
        {
            return badLive;
        }
        if (null != queues && (!live || queues < 1 || queues > MAX_QUEUES))
        {
            return live ? "--queues must be 1.." + MAX_QUEUES + ", was " + queues : "--queues needs --port (live)";
        }
        if (null != maxAtomics && (maxAtomics < 1 || maxAtomics > ResponderQp.SAVED_ATOMICS))
        {
            // 0 would refuse every atomic: the translator fails a region granted none, so it is no setting to offer.
            return "--max-atomics must be 1.." + ResponderQp.SAVED_ATOMICS +
                " (outstanding atomics a collector QP grants and can replay), was " + maxAtomics;
        }
        return null;
    }

    /**
     * @return the configuration with its negotiated regions assigned, or null when it is refused (said).
     */
    private ApplianceConfig loadConfig()
    {
        final ApplianceConfig loaded = config.load("collector");
        if (null == loaded)
        {
            return null;
        }
        // Every workerQueuePairs entry is hosted, whatever workers.count says: two with one collector QPN are refused.
        final List<String> qpProblems = HostedQps.problems(loaded.collectors());
        if (!qpProblems.isEmpty())
        {
            System.err.println("dta collector: " + (null == config.file ? "embedded configuration" : config.file) +
                ": " + new ConfigException(qpProblems).getMessage());
            return null;
        }
        // Negotiated regions get the QPN, R_Key and address this collector chooses (dta query chooses the same).
        return NegotiatedRegions.assign(loaded);
    }

    /**
     * @return 0, or the exit status when DPDK (live) or the input and output files (offline) cannot be used.
     */
    private int ioProblem(final boolean live)
    {
        if (live && !DpdkLibrary.isAvailable())
        {
            System.err.println("dta collector: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        final String unreadable = live ? null : FileErrors.unreadable(in);
        if (null != unreadable)
        {
            System.err.println("dta collector: cannot read " + in + ": " + unreadable);
            return 1;
        }
        return live ? 0 : OutputCapture.check("collector", out, in, config.file);
    }

    private int serveLive(
        final ApplianceConfig appliance,
        final IdleStrategy idleStrategy,
        final Map<String, CollectorStore> stores,
        final List<CollectorStore.Reservation> reservations) throws InterruptedException, StoreException
    {
        // Locked now (a store in use is refused before the EAL starts), zero-filled only once the EAL, pool
        // and port are up: a failed start leaves the previous run's regions as they were.
        for (final CollectorConfig collector : appliance.collectors())
        {
            reservations.add(CollectorStore.reserve(store, appliance, collector));
        }
        return runLive(appliance, () ->
        {
            for (final CollectorStore.Reservation reservation : reservations)
            {
                stores.put(reservation.collector().name(), reservation.create());
            }
            return responder(appliance, stores);
        }, idleStrategy);
    }

    private int serveOffline(
        final ApplianceConfig appliance,
        final Map<String, CollectorStore> stores,
        final List<CollectorStore.Reservation> reservations,
        final RunFiles files) throws IOException, StoreException
    {
        // The input is read through and every store locked before the first is zero-filled: an input that is no
        // capture, or a store in use, fails with the earlier stores as they were.
        CaptureCheck.readThrough(in);
        for (final CollectorConfig collector : appliance.collectors())
        {
            reservations.add(CollectorStore.reserve(store, appliance, collector));
        }
        final SoftResponder responder;
        try (PcapReader reader = PcapReader.open(in))
        {
            for (final CollectorStore.Reservation reservation : reservations)
            {
                stores.put(reservation.collector().name(), files.create(reservation::create));
            }
            responder = responder(appliance, stores);
            run(responder, reader, files);
        }
        // The responses are a result from here: a signal while the summary is printed leaves them.
        files.close();
        printSummary(responder, Map.of(), json, System.out);
        return 0;
    }

    private SoftResponder responder(final ApplianceConfig appliance, final Map<String, CollectorStore> stores)
    {
        final SoftResponder responder = new SoftResponder(appliance,
            (collector, region) -> stores.get(collector.name()).memory(region));
        if (null != maxAtomics)
        {
            responder.maxResponderResources(maxAtomics);
        }
        return responder;
    }

    private int runLive(
        final ApplianceConfig appliance,
        final LiveCollectorAgent.ResponderFactory responders,
        final IdleStrategy idleStrategy) throws InterruptedException
    {
        final LiveSettings settings = new LiveSettings(eal.args("collector"), List.of(port),
            LiveSettings.DEFAULT_BURST, LiveSettings.DEFAULT_POOL_SIZE, 0, LiveSettings.DEFAULT_DRAIN_MILLIS,
            LiveSettings.DEFAULT_STATS_INTERVAL_MILLIS, null == queues ? appliance.workers().count() : queues);
        final Path path = null == counters ? CountersFile.defaultPath("collector") : counters;
        try (CountersFile file = CountersFile.create(path, "collector", 128, System.currentTimeMillis()))
        {
            final LiveCollectorAgent agent = new LiveCollectorAgent(appliance, appliance.collectors(), responders,
                settings, file);
            System.err.println("dta collector: EAL " + String.join(" ", settings.ealArgs()) + "; counters " + path +
                "; stop with SIGINT or SIGTERM");
            final Throwable failure = LiveRunner.run(agent, idleStrategy);
            final SoftResponder responder = agent.responder();
            if (null == responder)
            {
                // The start failed (EAL, pool, port or store): nothing ran, so no summary, as dta run prints none.
                System.err.println("dta collector: " + (null == failure ? "the data plane did not start" :
                    failure.getMessage()));
                return 1;
            }
            // The JSON carries the ports, ARP and pool counts the text prints.
            printSummary(responder, json ? RunCommand.liveSummary(agent) : Map.of(), json, System.out);
            if (!json)
            {
                RunCommand.printPorts(agent, System.out);
            }
            if (null != failure)
            {
                System.err.println("dta collector: " + failure.getMessage());
                return 1;
            }
            return 0;
        }
    }

    private void run(final SoftResponder responder, final PcapReader reader, final RunFiles files) throws IOException
    {
        boolean created = false;
        try (PcapWriter writer = files.create(this::createOut))
        {
            created = true;
            final TimedSink sink = new TimedSink(writer, out);
            final CaptureProgress progress = CaptureProgress.of(reader, in, !noProgress);
            while (reader.next())
            {
                if (null != progress)
                {
                    progress.frame();
                }
                sink.timestampNanos = reader.timestampNanos() + RESPONSE_DELAY_NANOS;
                // Connection set-up timers (REP and metadata SEND re-sends) run on capture time.
                responder.poll(reader.timestampNanos(), sink);
                responder.onFrame(reader.buffer(), reader.offset(), reader.capturedLength(), reader.timestampNanos(),
                    sink);
            }
            if (null != progress)
            {
                progress.finish(true);
            }
            if (reader.cutShort())
            {
                // Like tshark: every whole frame was answered; the run completes, with a warning.
                System.err.println("dta collector: warning: " + reader.cutShortWarning());
            }
            try
            {
                // The last buffered responses are written here (a full disk often shows only now); closing again
                // at the end of the block does nothing.
                writer.close();
            }
            catch (final IOException ex)
            {
                throw new IOException(FileErrors.cannotWrite(out, ex), ex);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // A capture corrupt in its middle, a full disk: the responses written so far must not pass for a result.
            if (created && OutputFile.removeFailed(out))
            {
                throw new IOException(ex.getMessage() + "; " + out + " removed", ex);
            }
            throw ex;
        }
    }

    private PcapWriter createOut() throws IOException
    {
        try
        {
            return new PcapWriter(out, true);
        }
        catch (final IOException ex)
        {
            throw new IOException(FileErrors.cannotWrite(out, ex), ex);
        }
    }

    private static final class TimedSink implements ResponseSink
    {
        private final PcapWriter writer;
        private final Path path;
        private long timestampNanos;

        TimedSink(final PcapWriter writer, final Path path)
        {
            this.writer = writer;
            this.path = path;
        }

        @Override
        public void onResponse(final DirectBuffer buffer, final int offset, final int length)
        {
            try
            {
                writer.write(timestampNanos, buffer, offset, length);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(FileErrors.cannotWrite(path, ex), ex);
            }
        }
    }

    /**
     * Prints the responder's counters and QP states.
     *
     * @param responder the responder after the run.
     * @param live      live only: more keys of the JSON object (ports, ARP and pool counts), else empty.
     * @param json      one JSON object instead of text.
     * @param out       where to print.
     */
    static void printSummary(
        final SoftResponder responder, final Map<String, Object> live, final boolean json, final PrintStream out)
    {
        // JSON keys in camelCase like every other command's --json; the text keeps the counters-file labels.
        final Map<String, Object> counters = new LinkedHashMap<>();
        for (final ResponderCounter c : ResponderCounter.values())
        {
            counters.put(json ? EngineSummary.camel(c.name()) : c.label(), responder.counter(c));
        }
        final List<Map<String, Object>> qps = new ArrayList<>();
        for (final ResponderQp qp : responder.qps())
        {
            final Map<String, Object> q = new LinkedHashMap<>();
            q.put("region", qp.region().path());
            q.put("collector", qp.collector().name());
            q.put("collectorQpn", qp.qpn());
            q.put("state", qp.state().name());
            q.put("expectedPsn", qp.expectedPsn());
            q.put("msn", qp.msn());
            q.put("index", qp.index());
            q.put("peerQpn", qp.peerQpn());
            if (qp.negotiated())
            {
                q.put("connection", qp.connection().name());
            }
            qps.add(q);
        }
        if (json)
        {
            final Map<String, Object> all = new LinkedHashMap<>();
            all.put("counters", counters);
            all.put("queuePairs", qps);
            all.putAll(live);
            try
            {
                out.println(new ObjectMapper().writeValueAsString(all));
            }
            catch (final JsonProcessingException ex)
            {
                throw new IllegalStateException(ex);
            }
            return;
        }
        out.println("soft collector summary");
        for (final Map.Entry<String, Object> e : counters.entrySet())
        {
            out.printf("  %-28s %d%n", e.getKey(), (Long)e.getValue());
        }
        out.println("queue pairs");
        for (final ResponderQp qp : responder.qps())
        {
            // A region's further QPs (workers' queue pairs, further connections) carry their index.
            final String name = 0 == qp.index() ? qp.region().path() : qp.region().path() + " #" + qp.index();
            out.printf("  %-28s %-12s qpn 0x%06x  %-5s  ePSN 0x%06x  MSN %d%s%n", name,
                NetAddress.ipv4ToString(qp.collector().ip()), qp.qpn(), qp.state(), qp.expectedPsn(), qp.msn(),
                qp.negotiated() ? "  service port " + qp.region().servicePort() + " " + qp.connection() : "");
        }
    }
}
