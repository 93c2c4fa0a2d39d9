package io.dta.appliance.cli;

import io.dta.appliance.dpdk.DpdkReplay;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.OutputFile;
import io.dta.appliance.io.RunFiles;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.FileErrors;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.DpdkUnavailableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dta replay}: translates a capture of reports into a capture of RoCEv2 frames, deterministically.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "Translate every DTA report of a capture, in capture order, with the capture timestamps as the clock.",
        "Collector responses (ACK/NAK/ATOMIC ACK) from --responses are merged in by timestamp. At end of input",
        "partial batches are flushed and the run is summarised. A capture cut short inside its last record (copied",
        "while tcpdump was writing it) is translated up to its last whole record, with a warning." })
public final class ReplayCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--in", required = true, paramLabel = "REPORTS.pcap",
        description = "capture of DTA reports (pcap or pcapng)")
    private Path in;

    @Option(names = "--out", required = true, paramLabel = "ROCE.pcap", description = "capture to write RoCEv2 frames to")
    private Path out;

    @Option(names = "--responses", paramLabel = "RESP.pcap",
        description = "capture of the collector's responses (pcap or pcapng)")
    private Path responses;

    @Option(names = "--io", defaultValue = "java", paramLabel = "java|dpdk",
        description =
            "I/O path: java (pcap files read by the JVM; default) or dpdk (the captures go " +
            "through DPDK net_pcap devices, frames are read and written in mbufs; needs " +
            "DPDK 22.11, runs as any user on 4 KB pages (hugepage options in --eal need a hugetlbfs mount the " +
            "user can write); same frames as java)")
    private String io;

    @Option(names = "--eal", paramLabel = "ARGS", preprocessor = EalLinePreprocessor.class,
        description = "extra EAL arguments for --io dpdk, separated by spaces (e.g. \"-l 1\")")
    private String eal = "";

    @Option(names = "--workers", paramLabel = "W", description = "translator workers (default: the configuration's " +
        "workers.count, else 1): each frame goes to the worker RSS would give it (Toeplitz, default key, IPv4 " +
        "addresses and UDP ports), the workers run in turn, so the output is the same at every run; each static " +
        "region needs a QP for every worker after the first (workerQueuePairs)")
    private Integer workers;

    @Option(names = "--no-progress", description = "never show the progress through --in on standard error (shown " +
        "on a terminal with --io java)")
    private boolean noProgress;

    @Option(names = "--json", description = "print the summary as one JSON object")
    private boolean json;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call()
    {
        if (!"java".equals(io) && !"dpdk".equals(io))
        {
            System.err.println("dta replay: --io must be java or dpdk, not " + io);
            return 2;
        }
        if (!eal.isBlank() && !"dpdk".equals(io))
        {
            System.err.println("dta replay: --eal needs --io dpdk (the Java replay starts no EAL)");
            return 2;
        }
        if ("dpdk".equals(io) && !DpdkLibrary.isAvailable())
        {
            System.err.println("dta replay: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        final ApplianceConfig workersConfig = loadConfig();
        if (null == workersConfig)
        {
            return 2;
        }
        final int fileProblem = fileProblem();
        if (0 != fileProblem)
        {
            return fileProblem;
        }
        return replay(workersConfig);
    }

    /**
     * @return the configuration with {@code --workers}, or null when it is refused (said).
     */
    private ApplianceConfig loadConfig()
    {
        final ApplianceConfig appliance = config.load("replay");
        if (null == appliance)
        {
            return null;
        }
        final ApplianceConfig workersConfig = null == workers ? appliance : appliance.withWorkers(workers);
        final List<String> workerProblems = workersConfig.workerProblems(workersConfig.workers().count());
        if (!workerProblems.isEmpty())
        {
            workerProblems.forEach(line -> System.err.println("dta replay: " + line));
            return null;
        }
        if (appliance.hasNegotiatedRegions())
        {
            // Open loop: no collector answers the REQs, so nothing can be learned; a capture of responses is not a
            // conversation either.
            System.err.println("dta replay: the configuration has negotiated regions (servicePort); replay is open " +
                "loop and needs static regions (qpn, rkey and address configured). Use dta demo, which connects " +
                "them, or configure them statically.");
            return null;
        }
        return workersConfig;
    }

    /**
     * @return 0, or the exit status when an input cannot be read or the output cannot be written.
     */
    private int fileProblem()
    {
        for (final Path p : null == responses ? new Path[] { in } : new Path[] { in, responses })
        {
            final String unreadable = FileErrors.unreadable(p);
            if (null != unreadable)
            {
                System.err.println("dta replay: cannot read " + p + ": " + unreadable);
                return 1;
            }
        }
        return OutputCapture.check("replay", out, in, responses, config.file);
    }

    private int replay(final ApplianceConfig workersConfig)
    {
        // A signal ends the JVM through its shutdown hooks: the run's temporary files and the output it has written
        // so far (a capture cut anywhere, with --io dpdk stamped with the host's clock until re-stamped at the end)
        // are deleted there, as a failed run's.
        final RunFiles files = RunFiles.onSignal("replay", out, System.err);
        try
        {
            final List<String> ealArgs = eal.isBlank() ? List.of() : List.of(eal.trim().split("\\s+"));
            final List<CutShortCapture> cutShort = new ArrayList<>();
            final CaptureProgress[] progress = new CaptureProgress[1];
            final EngineGroup engine = "dpdk".equals(io) ?
                DpdkReplay.runWorkers(workersConfig, in, responses, out, ealArgs, cutShort, files) :
                Replay.runWorkers(workersConfig, in, responses, out, cutShort, reader -> progress[0] =
                    CaptureProgress.of(reader, in, !noProgress));
            if (null != progress[0])
            {
                progress[0].finish(true);
            }
            // The output is a result from here: a signal while the summary is printed leaves it.
            files.close();
            for (final CutShortCapture cut : cutShort)
            {
                // Like tshark: every whole packet was used; the operator learns that the capture was incomplete.
                System.err.println("dta replay: warning: " + cut.warning());
            }
            warnMisplaced(engine);
            EngineSummary.print(engine, cutShort, json, System.out);
            return 0;
        }
        catch (final IOException | UncheckedIOException | DpdkException | DpdkUnavailableException |
            IllegalStateException ex)
        {
            // A FileSystemException's message may be the path alone (an --out under /proc): say why as well.
            return failed(ex instanceof final IOException io ? FileErrors.reason(io) :
                ex instanceof final UncheckedIOException unchecked ? FileErrors.reason(unchecked.getCause()) :
                ex.getMessage(), files);
        }
        catch (final RuntimeException ex)
        {
            // A bug, not the user's mistake: the output it cut short goes as a failed run's, and the trace is kept
            // for the report.
            final int status = failed("internal error (a bug: please report it with the trace below): " + ex, files);
            ex.printStackTrace();
            return status;
        }
        finally
        {
            files.close();
        }
    }

    /**
     * Each capture has one role: frames of the other role in it are skipped (counted) and said here, since they most
     * likely mean swapped or mixed-up files.
     */
    private static void warnMisplaced(final EngineGroup engine)
    {
        final long responsesInReports = engine.counters().get(EngineCounter.ROCE_FRAMES_IN_REPORTS_CAPTURE);
        if (0 != responsesInReports)
        {
            System.err.println("dta replay: warning: " + responsesInReports + " RoCEv2 frame(s) in --in skipped: the " +
                "collector's responses are taken from --responses only (a capture holding both is given as both)");
        }
        final long reportsInResponses = engine.counters().get(EngineCounter.REPORTS_IN_RESPONSES_CAPTURE);
        if (0 != reportsInResponses)
        {
            System.err.println("dta replay: warning: " + reportsInResponses + " DTA report(s) in --responses " +
                "skipped: reports are translated from --in only");
        }
    }

    /**
     * A run that failed after writing the output (a record damaged in its middle, which {@code --io dpdk} finds
     * reading its inputs through before writing and treats alike) leaves no capture that looks like a result, an
     * earlier file of that name included; one that failed before touching it (an input that is not a capture, DPDK
     * refusing to start) leaves an earlier file of that name as it was.
     */
    private int failed(final String message, final RunFiles files)
    {
        final boolean removed = files.outputChanged() && OutputFile.removeFailed(out);
        System.err.println("dta replay: " + message + (removed ? "; " + out + " removed" : ""));
        return 1;
    }
}
