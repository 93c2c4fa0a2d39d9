package io.dta.appliance.cli;

import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.GeneratorSettingsException;
import io.dta.appliance.gen.Primitive;
import io.dta.appliance.gen.ProgressBar;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.gen.SketchTraffic;
import io.dta.appliance.io.OutputFile;
import io.dta.appliance.io.RunFiles;
import io.dta.codec.pcap.PcapFormat;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.FileErrors;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code dta gen}: writes a pcap capture of synthetic DTA reports for tests, demos and benchmarks, like the
 * reference's TRex profiles but with a primitive mix, key distributions, redundancy, flags, several reporters and
 * deliberately invalid reports. See {@code docs/gen.md}.
 */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Write a pcap capture of DTA reports addressed to the collectors of a configuration.",
        "The capture depends only on the arguments (and the configuration): the same seed gives the same bytes.",
        "Prints a summary on stdout (a JSON object with --json); a progress bar on stderr for long runs.",
        "Exit status: 0 done, 1 the file could not be written, 2 bad arguments." })
public final class GenCommand implements Callable<Integer>
{
    /** Runs of at least this many reports show a progress bar even when stderr is not a terminal. */
    public static final long PROGRESS_THRESHOLD = 1_000_000;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "FILE.pcap", description = "capture to write (replaced)")
    private Path out;

    @CommandLine.Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--reports", paramLabel = "N",
        description = "number of reports (default: 10000; with a sketch-only mix, until the sketch traffic ends)")
    private Long reportsOption;

    private long reports;

    /** Bytes of the capture written. */
    private long written;

    @Option(names = "--mix", paramLabel = "P=W,...",
        description = "relative weights of keywrite, append, keyincrement, postcard, sketch; unnamed ones get 0 " +
            "(default: keywrite=40,append=30,keyincrement=20,postcard=10, leaving out what the collectors lack)")
    private String mix;

    @Option(names = "--keys", paramLabel = "DIST", defaultValue = "uniform",
        description = "key distribution over 0..K-1: sequential, uniform or zipf (default: ${DEFAULT-VALUE})")
    private String keys;

    @Option(names = "--key-space", paramLabel = "K", defaultValue = "65536",
        description = "number of distinct keys, 1..2^32 (default: ${DEFAULT-VALUE})")
    private long keySpace;

    @Option(names = "--zipf-exponent", paramLabel = "S", defaultValue = "1.1",
        description = "Zipf exponent s, P(rank r) ~ r^-s; key r-1 has rank r (default: ${DEFAULT-VALUE})")
    private double zipfExponent;

    @Option(names = "--redundancy", paramLabel = "N|MIN-MAX",
        description = "Key-Write/Key-Increment redundancy, fixed or uniform in a range, at most redundancy.max " +
            "(default: 2, or redundancy.max if smaller)")
    private String redundancy;

    @Option(names = "--lists", paramLabel = "ID,...",
        description = "Append list IDs (default: every list of the selected collectors)")
    private String lists;

    @Option(names = "--base-header", paramLabel = "3|2",
        description = "DTA base header form; must match reports.baseHeader unless that is auto " +
            "(default: the configuration's reports.baseHeader; 3 for auto)")
    private String baseHeader;

    @Option(names = "--essential", paramLabel = "FRACTION", defaultValue = "0",
        description = "share of reports flagged essential, 0..1 (3-byte form only; default: ${DEFAULT-VALUE})")
    private double essential;

    @Option(names = "--retransmittable",
        description = "set the retransmittable flag on every report (3-byte form only)")
    private boolean retransmittable;

    @Option(names = "--reporters", paramLabel = "N", defaultValue = "4",
        description = "number of reporters, at most 65536: 10.0.1.1, 10.0.1.2, ... up to 256, then from 10.0.3.1 " +
            "(10.0.2.1-10.0.3.0 are the sketch switches'), MAC 02:00:<IP> (default: ${DEFAULT-VALUE})")
    private int reporters;

    @Option(names = "--collector", paramLabel = "IP", split = ",",
        description = "send only to these collectors of the configuration (default: all, reports spread over them)")
    private String[] collectors;

    @Option(names = "--spacing-nanos", paramLabel = "NS", defaultValue = "1000",
        description = "gap between report timestamps; not a multiple of 1000 makes a nanosecond pcap " +
            "(default: ${DEFAULT-VALUE})")
    private long spacingNanos;

    @Option(names = "--start-time", paramLabel = "EPOCH_SECONDS",
        description = "timestamp of the first report (default: 1704067200, 2024-01-01T00:00:00Z)")
    private Long startTime;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
        description = "random seed (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--hops", paramLabel = "H",
        description = "postcard hops per flow, 1 to the configuration's postcards.hops (default: postcards.hops)")
    private Integer hops;

    @Option(names = "--postcard-loss", paramLabel = "FRACTION", defaultValue = "0",
        description = "share of postcard hops not sent, 0 <= f < 1 (default: ${DEFAULT-VALUE})")
    private double postcardLoss;

    @Option(names = "--bad", paramLabel = "FRACTION", defaultValue = "0",
        description = "share of deliberately invalid reports: unknown opcode, N=0, N>max, truncated, " +
            "unknown list ID, drawn uniformly (default: ${DEFAULT-VALUE})")
    private double bad;

    @Option(names = "--sketches", paramLabel = "ID,...",
        description = "sketch IDs to send (default: every sketch of the selected collectors)")
    private String sketches;

    @Option(names = "--switches", paramLabel = "S",
        description = "switches sending each sketch, 1..256 (default: the sketch's configured switches)")
    private Integer switches;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "2",
        description = "sketch epochs to send (default: ${DEFAULT-VALUE})")
    private int epochs;

    @Option(names = "--first-epoch", paramLabel = "E", defaultValue = "1",
        description = "number of the first sketch epoch (default: ${DEFAULT-VALUE})")
    private long firstEpoch;

    @Option(names = "--sketch-items", paramLabel = "N", defaultValue = "10000",
        description = "keys each switch adds to its sketch per epoch (default: ${DEFAULT-VALUE})")
    private long sketchItems;

    @Option(names = "--sketch-gaps", paramLabel = "FRACTION", defaultValue = "0",
        description = "per column, chance a switch skips it, sends up to 3 later columns (NACKed) and restarts " +
            "from it (default: ${DEFAULT-VALUE})")
    private double sketchGaps;

    @Option(names = "--sketch-duplicates", paramLabel = "FRACTION", defaultValue = "0",
        description = "per column, chance a switch sends it twice (default: ${DEFAULT-VALUE})")
    private double sketchDuplicates;

    @Option(names = "--missing-switch",
        description = "in the last epoch the last switch stops after half its columns (epoch incomplete)")
    private boolean missingSwitch;

    @Option(names = "--truth", paramLabel = "FILE.json",
        description = "write the true merged sketch, contributors and key counts of every epoch")
    private Path truth;

    @Option(names = "--json", description = "print the summary as one JSON object")
    private boolean json;

    @Option(names = "--no-progress", description = "never draw the progress bar")
    private boolean noProgress;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call()
    {
        // SIGINT and SIGTERM end the JVM through its shutdown hooks: the capture (and --truth) the run has started
        // are removed there, as after a failed run, in one line.
        try (RunFiles files = RunFiles.onSignal("gen", out, System.err).alsoOutput(truth))
        {
            return generate(files);
        }
    }

    private int generate(final RunFiles files)
    {
        final PrintWriter err = spec.commandLine().getErr();
        final PrintWriter stdout = spec.commandLine().getOut();

        final ApplianceConfig applianceConfig = config.load("gen", err);
        if (null == applianceConfig)
        {
            return 2;
        }

        final ReportGenerator generator;
        try
        {
            generator = configure(applianceConfig);
        }
        catch (final GeneratorSettingsException ex)
        {
            err.println("dta gen: " + ex.getMessage());
            err.flush();
            return 2;
        }
        if (!generator.omittedPrimitives().isEmpty() && !json)
        {
            final StringBuilder names = new StringBuilder();
            for (final Primitive primitive : generator.omittedPrimitives())
            {
                names.append(names.length() == 0 ? "" : ", ").append(primitive.cliName());
            }
            err.println("dta gen: note: no selected collector takes " + names + "; left out of the default mix");
            err.flush();
        }

        final int outputProblem = OutputCapture.check(err, "gen", out, config.file);
        if (0 != outputProblem)
        {
            return outputProblem;
        }
        if (null != truth && 0 != OutputCapture.check(err, "gen", truth, config.file))
        {
            return 1;
        }
        return write(files, generator, err, stdout);
    }

    /**
     * The options as generator settings, checked against each other and the configuration.
     */
    private ReportGenerator configure(final ApplianceConfig applianceConfig)
    {
        final GeneratorSettings settings = new GeneratorSettings();
        reports = null == reportsOption ? GeneratorSettings.DEFAULT_REPORTS : reportsOption;
        if (reports < 0)
        {
            throw new GeneratorSettingsException("--reports", "must not be negative: " + reports);
        }
        if (null != mix)
        {
            settings.mix(mix);
        }
        settings.keyDistribution(keys)
            .keySpace(keySpace)
            .zipfExponent(zipfExponent)
            .essentialFraction(essential)
            .retransmittable(retransmittable)
            .reporters(reporters)
            .spacingNanos(spacingNanos)
            .seed(seed)
            .postcardLoss(postcardLoss)
            .badFraction(bad);
        if (null != redundancy)
        {
            settings.redundancy(redundancy);
        }
        if (null != lists)
        {
            settings.listIds(lists);
        }
        if (null != baseHeader)
        {
            settings.baseHeader(baseHeader);
        }
        if (null != collectors)
        {
            settings.collectorIps(String.join(",", collectors));
        }
        if (null != startTime)
        {
            settings.startTimeSeconds(startTime);
        }
        configureSketches(settings);
        if (null != hops)
        {
            if (hops < 1)
            {
                throw new GeneratorSettingsException("--hops", "must be between 1 and 255, not " + hops);
            }
            settings.hops(hops);
        }
        checkSettings(settings);
        final ReportGenerator generator = new ReportGenerator(applianceConfig, settings);
        checkSketchSpan(generator, settings);
        return generator;
    }

    private void checkSketchSpan(final ReportGenerator generator, final GeneratorSettings settings)
    {
        final long sketchFrames = expectedSketchFrames(generator);
        if (reports == Long.MAX_VALUE && sketchFrames > 1 && spacingNanos > 0 &&
            (sketchFrames - 1) > (PcapFormat.MAX_TIMESTAMP_NANOS - settings.startTimeNanos()) / spacingNanos)
        {
            // A sketch-only run has no --reports to check in checkSettings; its plain frame count is a lower bound
            // (gaps and duplicates add frames), so a run refused here would certainly pass the end.
            throw new GeneratorSettingsException("--spacing-nanos", "the last of at least " + sketchFrames +
                " sketch columns would be stamped after 2106-02-07, the end of the pcap time range");
        }
    }

    private void configureSketches(final GeneratorSettings settings)
    {
        settings.epochs(epochs)
            .firstEpoch(firstEpoch)
            .sketchItems(sketchItems)
            .sketchGaps(sketchGaps)
            .sketchDuplicates(sketchDuplicates)
            .missingSwitch(missingSwitch)
            .recordTruth(null != truth);
        if (null != sketches)
        {
            settings.sketchIds(sketches);
        }
        if (null != switches)
        {
            if (switches < 1)
            {
                throw new GeneratorSettingsException("--switches", "must be between 1 and 256, not " + switches);
            }
            settings.switches(switches);
        }
        if (null == reportsOption && sketchOnly(settings))
        {
            // Until the sketch traffic ends: the finite streams exhaust the generator, and the loop stops.
            reports = Long.MAX_VALUE;
        }
    }

    private void checkSettings(final GeneratorSettings settings)
    {
        if (reports > 1 && reports != Long.MAX_VALUE && spacingNanos > 0 &&
            (reports - 1) > (PcapFormat.MAX_TIMESTAMP_NANOS - settings.startTimeNanos()) / spacingNanos)
        {
            throw new GeneratorSettingsException("--spacing-nanos", "the last of " + reports +
                " reports would be stamped after 2106-02-07, the end of the pcap time range");
        }
        if (0 == settings.mixWeight(Primitive.SKETCH))
        {
            // Without sketch traffic they would be ignored, and a typo in --sketches would go unnoticed.
            if (null != sketches)
            {
                throw new GeneratorSettingsException("--sketches", "needs sketch in --mix (e.g. --mix sketch=1)");
            }
            if (null != switches)
            {
                throw new GeneratorSettingsException("--switches", "needs sketch in --mix (e.g. --mix sketch=1)");
            }
        }
        else if (settings.firstEpoch() + settings.epochs() - 1 > 0xFFFF_FFFFL)
        {
            // The translator compares epochs without wrap-around (docs/sketch.md): epoch 0 after 2^32 - 1 would
            // be dropped as stale.
            throw new GeneratorSettingsException("--epochs", settings.epochs() + " epochs from --first-epoch " +
                settings.firstEpoch() + " would pass 4294967295, and epoch numbers do not wrap around");
        }
        if (null != truth && OutputCapture.sameFile(truth, out))
        {
            throw new GeneratorSettingsException("--truth", "would overwrite the capture " + out);
        }
    }

    /**
     * Writes the capture (and {@code --truth}), then the summary.
     */
    private int write(
        final RunFiles files, final ReportGenerator generator, final PrintWriter err, final PrintWriter stdout)
    {
        final boolean nanosecondPcap = spacingNanos % 1000 != 0;
        final boolean terminal = StderrTerminal.isTerminal();
        final long expected = reports != Long.MAX_VALUE ? reports : expectedSketchFrames(generator);
        final ProgressBar progress = !noProgress && (terminal || expected >= PROGRESS_THRESHOLD) ?
            new ProgressBar(err, expected, terminal) : null;
        final int status = writeCapture(files, generator, err, nanosecondPcap, progress);
        if (0 != status)
        {
            return status;
        }
        final long fileSize = written;
        if (null != truth)
        {
            try
            {
                files.create(() -> Files.writeString(truth, SketchTruth.json(generator)));
            }
            catch (final IOException ex)
            {
                err.println("dta gen: cannot write --truth " + truth + ": " + FileErrors.reason(truth, ex));
                err.flush();
                return 1;
            }
        }
        if (null != progress)
        {
            progress.finish(generator.reports());
        }

        final GenSummary summary = new GenSummary(out, seed, keys, keySpace, retransmittable);
        if (json)
        {
            stdout.println(summary.json(generator, fileSize, nanosecondPcap));
        }
        else
        {
            summary.text(stdout, generator, fileSize, nanosecondPcap);
        }
        stdout.flush();
        return 0;
    }

    /**
     * Writes every report into the capture; its size in {@link #written}.
     *
     * @return 0, or the exit status of a failure (the capture removed).
     */
    private int writeCapture(
        final RunFiles files,
        final ReportGenerator generator,
        final PrintWriter err,
        final boolean nanosecondPcap,
        final ProgressBar progress)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        boolean created = false;
        try
        {
            try (PcapWriter writer = files.create(() -> new PcapWriter(out, nanosecondPcap)))
            {
                created = true;
                for (long i = 1; i <= reports && !generator.exhausted(); i++)
                {
                    final int length = generator.next(frame, 0);
                    if (generator.timestampNanos() > PcapFormat.MAX_TIMESTAMP_NANOS)
                    {
                        // Only sketch gaps and duplicates, which add frames past the bound checked above, get here.
                        writer.close();
                        final boolean removed = OutputFile.removeFailed(out);
                        err.println("dta gen: --spacing-nanos: report " + i + " would be stamped after 2106-02-07, " +
                            "the end of the pcap time range" + (removed ? "; " + out + " removed" : ""));
                        err.flush();
                        return 2;
                    }
                    writer.write(generator.timestampNanos(), frame, 0, length);
                    if (null != progress)
                    {
                        progress.update(i);
                    }
                }
            }
            written = Files.size(out);
            return 0;
        }
        catch (final IOException ex)
        {
            // A capture cut short by a full disk must not pass for a result.
            final boolean removed = created && OutputFile.removeFailed(out);
            err.println("dta gen: " + FileErrors.cannotWrite(out, ex) + (removed ? "; " + out + " removed" : ""));
            err.flush();
            return 1;
        }
    }

    private static boolean sketchOnly(final GeneratorSettings settings)
    {
        for (final Primitive primitive : Primitive.values())
        {
            if (primitive != Primitive.SKETCH && settings.mixWeight(primitive) > 0)
            {
                return false;
            }
        }
        return settings.mixWeight(Primitive.SKETCH) > 0;
    }

    private static long expectedSketchFrames(final ReportGenerator generator)
    {
        long frames = 0;
        for (final SketchTraffic t : generator.sketchTraffic())
        {
            frames += t.plainFrames();
        }
        return frames;
    }
}
