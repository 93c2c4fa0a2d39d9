package io.dta.appliance.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.WorkerConnections;
import io.dta.appliance.connect.RegionConnection;
import io.dta.appliance.dpdk.IdleStrategies;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.live.LiveAgent;
import io.dta.appliance.live.LiveRunner;
import io.dta.appliance.live.LiveSettings;
import io.dta.appliance.live.LiveTranslatorAgent;
import io.dta.appliance.live.PortCounters;
import io.dta.appliance.state.PreviousRun;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.stat.CountersFile;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.EthStats;
import org.agrona.concurrent.IdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta run}: the translator live on DPDK, until SIGINT or SIGTERM.
 */
@Command(
    name = "run",
    header = "Run the translator live on DPDK until SIGINT or SIGTERM.",
    mixinStandardHelpOptions = true,
    description = {
        "Run the translator live on DPDK: DTA reports in on the reports port, RoCEv2 frames out on the collector",
        "link and the collector's ACK/NAK/ATOMIC ACK back on it (one port may be both). Answers ARP for",
        "translator.ip on both. Counters live in a shared-memory file that dta stat reads. Runs until SIGINT or",
        "SIGTERM, then flushes partial batches, waits up to --drain-ms for the last acknowledgements, and prints",
        "its final counters. Needs DPDK 22.11 and root (or the capabilities DPDK needs). Negotiated regions",
        "(servicePort) are connected on the collector link before any report is read, and connected again when",
        "their QP goes to the error state (connection.reconnectAttempts); at the stop, after the drain, they are",
        "disconnected (IB CM DREQ/DREP, at most (maxCmRetries + 1) x cmResponseTimeout).",
        "A net_memif client port (role=client, memif's default) whose server goes away (dta collector stopped",
        "or restarted) is stopped and started again every 100 ms until the server is back: one line when the",
        "link goes down, one when it is up again; its frames meanwhile count as tx not taken. A memif server's",
        "socket file (socket-abstract=no) that nobody listens on, left by a killed server, is removed at start.",
        "Each Append list's position (next batch sequence number, or reference ring head) is kept in a list state",
        "file, so a restarted translator continues every list whose region is unchanged (docs/layouts.md); a",
        "state file of another version, truncated or corrupt is refused: --fresh-lists starts every list anew.",
        "Exit status: 0 after a signal, 1 when the data plane or connection set-up failed or the list state file",
        "was refused, 2 on bad arguments or configuration." })
public final class RunCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Mixin
    private EalOptions eal = new EalOptions();

    @Option(names = "--reports-port", defaultValue = "0", paramLabel = "PORT",
        description = "port the reports come in on: an ethdev port id or name (default: ${DEFAULT-VALUE})")
    private String reportsPort;

    @Option(names = "--collector-port", paramLabel = "PORT",
        description = "port of the collector link (RoCEv2 out, responses in): id or name (default: the reports port)")
    private String collectorPort;

    @Option(names = "--counters", paramLabel = "FILE",
        description = "shared-memory counters file (default: /dev/shm/dta/translator.counters)")
    private Path counters;

    @Option(names = "--state-file", paramLabel = "FILE",
        description = "list state file: each Append list's region and next position, and each static QP's next " +
            "PSN at a clean stop, resumed at start (default: " +
            "next to the counters file, its .counters suffix replaced by .lists: /dev/shm/dta/translator.lists)")
    private Path stateFile;

    @Option(names = "--fresh-lists", description = "ignore the list state file (even one of another version or a " +
        "corrupt one) and start every list from batch 1 and every QP at its startPsn; list readers must then " +
        "restart from cursor 0")
    private boolean freshLists;

    @Option(names = "--idle", defaultValue = "backoff", paramLabel = "STRATEGY",
        description = "idle strategy of the data plane: backoff (spin, yield, then park up to 100 us when idle; " +
            "default), spin (busy-spin), yield, noop")
    private String idle;

    @Option(names = "--burst", defaultValue = "32", paramLabel = "N",
        description = "packets per rx/tx burst, 1..512 (default: ${DEFAULT-VALUE})")
    private int burst;

    @Option(names = "--pool-size", defaultValue = "16383", paramLabel = "N",
        description = "mbufs in the pool, at least twice the burst (default: ${DEFAULT-VALUE}; about 2.4 KB each " +
            "with -m)")
    private int poolSize;

    @Option(names = "--link-wait-ms", defaultValue = "10000", paramLabel = "MS",
        description = "wait this long for the links to come up before reading reports anyway (default: " +
            "${DEFAULT-VALUE})")
    private long linkWaitMillis;

    @Option(names = "--drain-ms", defaultValue = "1000", paramLabel = "MS",
        description = "after a stop signal, wait this long at most for outstanding acknowledgements (default: " +
            "${DEFAULT-VALUE}); a second signal stops at once")
    private long drainMillis;

    @Option(names = "--workers", paramLabel = "W", description = "data-plane workers (default: the configuration's " +
        "workers.count, else 1), each on an EAL lcore of its own (the EAL core list needs W lcores) with its own " +
        "queue on every port (RSS over IPv4 addresses and UDP ports where the NIC has it), its own engine and its " +
        "own QP to every region (static regions list them in workerQueuePairs); ARP and the collector's set-up " +
        "traffic are handled by worker 0")
    private Integer workers;

    @Option(names = "--json", description = "print the final summary as one JSON object")
    private boolean json;

    @Option(names = "--latency-log", paramLabel = "FILE", description = "also write the reports' sampled latency " +
        "(one report in 1024, rx burst to tx burst) as an HdrHistogram interval log, one interval per stats tick, " +
        "which HdrHistogram's tools read; the percentiles since the start are in the counters file either way")
    private Path latencyLog;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws InterruptedException
    {
        final IdleStrategy idleStrategy = idleStrategy("run", idle);
        if (null == idleStrategy)
        {
            return 2;
        }
        final String badNumber = burst < 1 || burst > 512 ? "--burst must be 1..512, was " + burst :
            poolSize < 2 * burst ? "--pool-size must be at least twice the burst (" + 2 * burst + "), was " + poolSize :
            linkWaitMillis < 0 ? "--link-wait-ms must not be negative, was " + linkWaitMillis :
            drainMillis < 0 ? "--drain-ms must not be negative, was " + drainMillis :
            reportsPort.isBlank() ? "--reports-port must name a port (an ethdev name or a port id)" :
            null != collectorPort && collectorPort.isBlank() ?
                "--collector-port must name a port (an ethdev name or a port id)" : eal.contradiction();
        if (null != badNumber)
        {
            System.err.println("dta run: " + badNumber);
            return 2;
        }
        final ApplianceConfig appliance = loadConfig();
        if (null == appliance)
        {
            return 2;
        }
        final Path path = null == counters ? CountersFile.defaultPath("translator") : counters;
        final PreviousRun previousLists;
        try
        {
            previousLists = readListState(path, stateFile, freshLists);
        }
        catch (final IllegalStateException | UncheckedIOException ex)
        {
            System.err.println("dta run: " + ex.getMessage());
            return 1;
        }
        if (!DpdkLibrary.isAvailable())
        {
            System.err.println("dta run: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        return serve(appliance, path, previousLists, idleStrategy);
    }

    /**
     * Creates the counters file and runs the translator until it is stopped.
     */
    private int serve(
        final ApplianceConfig appliance,
        final Path path,
        final PreviousRun previousLists,
        final IdleStrategy idleStrategy) throws InterruptedException
    {
        final int workerCount = appliance.workers().count();
        final LiveSettings settings = new LiveSettings(eal.args("run"),
            List.of(reportsPort, null == collectorPort ? reportsPort : collectorPort), burst, poolSize, linkWaitMillis,
            drainMillis, LiveSettings.DEFAULT_STATS_INTERVAL_MILLIS, workerCount);
        final CountersFile file;
        try
        {
            file = CountersFile.create(path, "translator",
                256 + (workerCount > 1 ? workerCount * EngineCounters.count() : 0), System.currentTimeMillis());
        }
        catch (final IllegalStateException | IllegalArgumentException | UncheckedIOException ex)
        {
            System.err.println("dta run: " + ex.getMessage());
            return 1;
        }
        try (file)
        {
            final LiveTranslatorAgent agent = new LiveTranslatorAgent(appliance, settings, file, previousLists);
            agent.latencyLog(latencyLog);
            System.err.println("dta run: EAL " + String.join(" ", settings.ealArgs()) + "; counters " + path +
                "; list state " + previousLists.path() + "; stop with SIGINT or SIGTERM");
            // The agent closes its list state file itself, on its own thread, after its last store.
            final Throwable failure = LiveRunner.run(agent, idleStrategy);
            printEnd(agent, failure);
            if (null != failure)
            {
                System.err.println("dta run: " + failure.getMessage());
                return 1;
            }
            return 0;
        }
    }

    /**
     * @return the configuration with {@code --workers}, or null when it is refused (said).
     */
    private ApplianceConfig loadConfig()
    {
        final ApplianceConfig loaded = config.load("run");
        if (null == loaded)
        {
            return null;
        }
        final ApplianceConfig appliance = null == workers ? loaded : loaded.withWorkers(workers);
        final int workerCount = appliance.workers().count();
        final List<String> workerProblems = appliance.workerProblems(workerCount);
        if (!workerProblems.isEmpty())
        {
            workerProblems.forEach(line -> System.err.println("dta run: " + line));
            return null;
        }
        return appliance;
    }

    /**
     * The run's summary once it ended: the engine's, or, stopped during connection set-up, the connections'.
     */
    private void printEnd(final LiveTranslatorAgent agent, final Throwable failure)
    {
        if (null != agent.engine())
        {
            // Quiescent too: a data plane that failed never drained, whatever the agent's drain flag says.
            final boolean drained = agent.drainComplete() && agent.engine().isQuiescent();
            if (!drained)
            {
                System.err.println(
                    drainWarning(agent.engine(), drainMillis, agent.stoppedAtOnce(), null != failure));
            }
            printSummary(agent, drained, json, System.out);
        }
        else if (null != agent.connections())
        {
            // Stopped (or failed) while the negotiated regions were being set up: no engine ever ran.
            if (null == failure)
            {
                System.err.println("dta run: stopped during connection set-up: no report was read");
            }
            if (json)
            {
                final Map<String, Object> root = new LinkedHashMap<>();
                root.put("setUpComplete", false);
                root.put("connections", ConnectionJson.of(agent.connections()));
                printJson(root, System.out);
            }
            else
            {
                printConnections(agent.connections(), System.out);
            }
        }
    }

    /**
     * Reads the list state file a run resumes from, before the EAL starts, so a refused file costs no EAL start.
     *
     * @param countersFile the run's counters file (the state file's default is next to it).
     * @param stateFile    {@code --state-file}, or null.
     * @param fresh        {@code --fresh-lists}.
     * @return what to resume.
     * @throws IllegalStateException with the refusal (file named, what is wrong, the way out).
     * @throws UncheckedIOException  when the file cannot be read.
     */
    static PreviousRun readListState(final Path countersFile, final Path stateFile, final boolean fresh)
    {
        return ResumeStateFile.read(null == stateFile ? ResumeStateFile.defaultPath(countersFile) : stateFile, fresh);
    }

    /**
     * The line that says a stop did not drain: the summary's drops do not show the reports that were still waiting
     * (most often for a collector that does not answer), so they would vanish without a word.
     *
     * @param engine      the engine after the run.
     * @param drainMillis {@code --drain-ms}.
     * @param cutShort    a second stop signal ended the drain.
     * @param failed      the data plane stopped on a failure, without a drain.
     * @return the warning.
     */
    static String drainWarning(
        final TranslatorEngine engine, final long drainMillis, final boolean cutShort, final boolean failed)
    {
        final String why = failed ? "the data plane stopped on a failure" : cutShort ?
            "a second stop signal ended the drain" : "the drain time (--drain-ms " + drainMillis + ") ran out";
        final long pending = engine.counters().reportsPending();
        // Non-essential WRITEs count as delivered once sent, so a QP may still await ACKs with nothing pending.
        final String what = 0 == pending ?
            "no report was pending, but frames already sent were never acknowledged" :
            pending + " report(s) neither delivered nor dropped (held, unacknowledged or waiting for atomic credit) " +
            "are lost with the process";
        return "dta run: warning: " + why + " before the collectors acknowledged everything: " + what +
            "; not quiescent: " + EngineSummary.notQuiescent(engine);
    }

    /**
     * @param command the command, for messages.
     * @param name    an idle strategy name; {@code spin} is accepted for {@code busy-spin}.
     * @return the strategy, or null (after a message) for an unknown name.
     */
    static IdleStrategy idleStrategy(final String command, final String name)
    {
        try
        {
            return IdleStrategies.parse("spin".equals(name) ? "busy-spin" : name);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("dta " + command + ": --idle: " + ex.getMessage());
            return null;
        }
    }

    private static void printSummary(
        final LiveTranslatorAgent agent, final boolean drained, final boolean json, final PrintStream out)
    {
        if (json)
        {
            final Map<String, Object> root = EngineSummary.toMap(EngineGroup.of(agent.engines()), null);
            root.putAll(liveSummary(agent));
            root.put("drainComplete", drained);
            if (null != agent.connections())
            {
                root.put("connections", ConnectionJson.of(agent.connections()));
            }
            printJson(root, out);
            return;
        }
        EngineSummary.print(EngineGroup.of(agent.engines()), null, false, out);
        printPorts(agent, out);
        if (null != agent.connections())
        {
            printConnections(agent.connections(), out);
        }
    }

    private static void printJson(final Map<String, Object> root, final PrintStream out)
    {
        try
        {
            out.println(new ObjectMapper().writeValueAsString(root));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static void printConnections(final WorkerConnections connections, final PrintStream out)
    {
        out.println("connections: " + connections.summary() + ", " +
            connections.counter(ConnectionCounter.RECONNECTS) + " reconnect(s), " +
            connections.counter(ConnectionCounter.RECONNECT_FAILURES) + " failed reconnection(s)");
        final List<ConnectionManager> managers = connections.managers();
        for (int w = 0; w < managers.size(); w++)
        {
            for (final RegionConnection c : managers.get(w).connections())
            {
                out.printf("  %s%s: %s, attempt %d, QPN 0x%06x, R_Key 0x%08x, address 0x%x, starting PSN 0x%06x%s%s%n",
                    managers.size() > 1 ? "worker " + w + " " : "", c.describe(), c.state(), c.attempts(),
                    c.remoteQpn(), c.rkey(), c.address(), c.startPsn(),
                    0 == c.atomicsLimit() ? "" : ", " + c.atomicsLimit() + " of " + c.atomics() +
                        " outstanding atomics", null == c.failure() ? "" : ": " + c.failure());
            }
        }
    }

    /**
     * The data plane's own numbers: ports, ARP, pool.
     *
     * @param agent the agent after its run.
     * @return keys {@code ports}, {@code arpRequestsAnswered}, {@code framesDroppedPoolEmpty}.
     */
    static Map<String, Object> liveSummary(final LiveAgent agent)
    {
        final Map<String, Object> root = new LinkedHashMap<>();
        final List<Map<String, Object>> ports = new ArrayList<>();
        for (final PortCounters c : agent.portCounters())
        {
            final Map<String, Object> port = new LinkedHashMap<>();
            port.put("port", c.port().portId());
            port.put("name", c.port().name());
            final EthStats s = c.last();
            if (null != s)
            {
                port.put("rxPackets", s.inPackets());
                port.put("txPackets", s.outPackets());
                port.put("rxMissed", s.inMissed());
                port.put("rxErrors", s.inErrors());
                port.put("txErrors", s.outErrors());
            }
            port.put("txNotTaken", c.txNotTaken());
            if (c.reconnects())
            {
                port.put("linksLost", c.linksLost());
                port.put("reconnectAttempts", c.reconnectAttempts());
                port.put("reconnections", c.reconnections());
            }
            ports.add(port);
        }
        root.put("ports", ports);
        root.put("arpRequestsAnswered", agent.arp().requestsAnswered());
        root.put("framesDroppedPoolEmpty", agent.claimFailures());
        return root;
    }

    /**
     * Prints one line per port, the ARP and pool counts.
     *
     * @param agent the agent after its run.
     * @param out   where to print.
     */
    static void printPorts(final LiveAgent agent, final PrintStream out)
    {
        out.println("ports:");
        for (final PortCounters c : agent.portCounters())
        {
            final EthStats s = c.last();
            out.printf("  %d %-24s rx %d, tx %d, rx missed %d, rx errors %d, tx errors %d, tx not taken %d%s%n",
                c.port().portId(), c.port().name(), null == s ? 0 : s.inPackets(), null == s ? 0 : s.outPackets(),
                null == s ? 0 : s.inMissed(), null == s ? 0 : s.inErrors(), null == s ? 0 : s.outErrors(),
                c.txNotTaken(), c.reconnects() ? ", link lost " + c.linksLost() + ", reconnected " +
                c.reconnections() + " (" + c.reconnectAttempts() + " attempt(s))" : "");
        }
        out.printf("ARP requests answered %d, frames dropped for want of an mbuf %d%n", agent.arp().requestsAnswered(),
            agent.claimFailures());
    }
}
