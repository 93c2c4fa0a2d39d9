package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.appliance.demo.DemoNegotiation;
import io.dta.appliance.engine.worker.DerivedQueuePairs;
import io.dta.appliance.demo.GeneratedReportSource;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.GeneratorSettingsException;
import io.dta.appliance.gen.Primitive;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.io.FrameSource;
import io.dta.appliance.io.RunFiles;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.pcap.PcapFormatException;
import io.dta.codec.pcap.PcapReader;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.StoreException;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.FileErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta demo}: translator, lossy link and soft collector in one process, closed loop.
 */
@Command(
    name = "demo",
    header = "The whole system in one process, closed loop, with no hardware: reports, translator, lossy link, " +
        "soft collector.",
    mixinStandardHelpOptions = true,
    description = {
        "The whole system in one process, closed loop: reports -> translator -> a link that drops a fraction of the",
        "frames each way (seeded) -> soft RoCEv2 collector writing memory-mapped stores -> responses -> translator,",
        "until all input is processed and every QP is quiescent. Prints throughput, request-to-ACK latency",
        "percentiles, losses and drops by reason, resyncs, whether every essential report landed, and sample",
        "query answers. With no arguments: the embedded configuration and generated traffic of every primitive.",
        "Negotiated regions (servicePort, or every region with --negotiate) are first connected through the same",
        "lossy link (RDMA-CM REQ/REP/RTU to QP1, the collector's metadata SEND and its ACK)." })
public final class DemoCommand implements Callable<Integer>
{
    /**
     * dta gen's default mix plus enough sketch traffic for two epochs of the demo configuration: the demo shows every primitive the collectors host.
     */
    static final String DEFAULT_MIX = "keywrite=40,append=30,keyincrement=20,postcard=10,sketch=7";

    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--in", paramLabel = "REPORTS.pcap", description = "reports to replay instead of generated traffic")
    private Path in;

    @Option(names = "--reports", defaultValue = "200000",
        description = "generated reports when no --in is given (default: ${DEFAULT-VALUE})")
    private long reports;

    @Option(names = "--mix", paramLabel = "P=W,...",
        description = "relative weights of the generated keywrite, append, keyincrement, postcard and sketch " +
            "reports, as for dta gen (default: " + DEFAULT_MIX + ", leaving out what the collectors lack)")
    private String mix;

    @Option(names = "--loss", defaultValue = "0.001",
        description = "probability that a frame is lost, in each direction (default: ${DEFAULT-VALUE})")
    private double loss;

    @Option(names = "--essential", defaultValue = "0.05",
        description = "fraction of generated reports flagged essential (default: ${DEFAULT-VALUE})")
    private double essential;

    @Option(names = "--retransmittable", description = "flag every generated report retransmittable: the reporters " +
        "keep them and send again what the translator NACKs (a sequence gap, or an essential report its QP's ring " +
        "has no room for)")
    private boolean retransmittable;

    @Option(names = "--seed", defaultValue = "1", description = "seed of traffic and loss (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--store", paramLabel = "DIR",
        description = "store directory to keep (default: a temporary directory, removed afterwards)")
    private Path store;

    @Option(names = "--workers", paramLabel = "W", description = "translator workers (default: the " +
        "configuration's workers.count, else 1): reports are spread over them as RSS would (Toeplitz, default key, " +
        "IPv4 addresses and UDP ports); each writes every region through a QP of its own, and an Append list, a " +
        "postcard flow or a sketch is handled by the one worker that owns it")
    private Integer workers;

    @Option(names = "--no-progress", description = "never show the progress through the reports on standard error " +
        "(shown on a terminal)")
    private boolean noProgress;

    @Option(names = "--json", description = "print one JSON object")
    private boolean json;

    @Option(names = "--negotiate", description = "treat every static region as negotiated: the translator forgets " +
        "its QPN, R_Key and address and learns them by connection set-up (the collector keeps hosting it there)")
    private boolean negotiate;

    @Option(names = "--inject-remote-access-error", defaultValue = "0", paramLabel = "N",
        description = "the collector refuses the N-th RDMA WRITE or FETCH_ADD it receives (wrong R_Key: NAK 0x62, " +
            "its QP in the error state); a negotiated region is connected again, a static one stays in error " +
            "(default: 0, none)")
    private long injectAt;

    @Spec
    private CommandSpec spec;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
        // SIGINT and SIGTERM end the JVM through its shutdown hooks: the temporary store directory is removed there,
        // in one line, as at the end of a run.
        try (RunFiles files = RunFiles.onSignal("demo", null, System.err))
        {
            return demo(files);
        }
    }

    private int demo(final RunFiles files) throws Exception
    {
        final String problem = argumentProblem();
        if (null != problem)
        {
            System.err.println("dta demo: " + problem);
            return 2;
        }
        final String unreadable = null == in ? null : FileErrors.unreadable(in);
        if (null != unreadable)
        {
            System.err.println("dta demo: cannot read --in " + in + ": " + unreadable);
            return 1;
        }
        final ApplianceConfig loaded = config.load("demo");
        if (null == loaded)
        {
            return 2;
        }
        final int workerCount = null == workers ? loaded.workers().count() : workers;
        // The demo's collector hosts a QP per worker for every static region: those a configuration does not list
        // are derived as negotiated regions' are (QPNs + (w << 16)).
        final ApplianceConfig appliance = DerivedQueuePairs.withWorkerQueuePairs(loaded, workerCount);
        final List<String> workerProblems = appliance.workerProblems(workerCount);
        if (!workerProblems.isEmpty())
        {
            workerProblems.forEach(line -> System.err.println("dta demo: " + line));
            return 2;
        }
        // The collector hosts every region (negotiated ones where it chooses); the translator knows only what its
        // configuration says and learns the rest.
        final ApplianceConfig collectorSide = negotiate ?
            DemoNegotiation.collectorSide(NegotiatedRegions.assign(appliance)) : NegotiatedRegions.assign(appliance);
        final ApplianceConfig translatorSide = DemoNegotiation.translatorSide(collectorSide);
        return inStores(files, translatorSide, collectorSide, workerCount);
    }

    /**
     * Runs the demo on stores of its own (a temporary directory unless {@code --store}), closed (and the temporary
     * directory removed) whatever happens.
     */
    private int inStores(
        final RunFiles files,
        final ApplianceConfig translatorSide,
        final ApplianceConfig collectorSide,
        final int workerCount) throws Exception
    {
        final boolean temporary = null == store;
        final Path dir = temporary ? files.createTempDirectory("dta-demo-") : store;
        final List<CollectorStore> stores = new ArrayList<>();
        try
        {
            for (final CollectorConfig collector : collectorSide.collectors())
            {
                stores.add(files.create(() -> CollectorStore.create(dir, collectorSide, collector)));
            }
            return run(translatorSide, collectorSide, stores, workerCount);
        }
        catch (final PcapFormatException | StoreException ex)
        {
            // A store another process holds (a running collector, another demo) is refused, not reused.
            System.err.println("dta demo: " + ex.getMessage());
            return 1;
        }
        catch (final IOException ex)
        {
            // The temporary store directory, or the --in capture: the file and the reason in words.
            System.err.println("dta demo: " + FileErrors.reason(ex));
            return 1;
        }
        catch (final GeneratorSettingsException ex)
        {
            System.err.println("dta demo: " + ex.getMessage());
            return 2;
        }
        catch (final IllegalStateException ex)
        {
            // The engine could not reserve its preallocated memory (a sketch's merge state on the heap, an essential
            // ring in direct memory): the message says what and the remedy, a trace would add nothing.
            System.err.println("dta demo: " + ex.getMessage());
            return 1;
        }
        finally
        {
            for (final CollectorStore s : stores)
            {
                s.close();
            }
            if (temporary)
            {
                files.delete(dir);
            }
        }
    }

    private int run(
        final ApplianceConfig translatorSide,
        final ApplianceConfig collectorSide,
        final List<CollectorStore> stores,
        final int workerCount) throws Exception
    {
        final ClosedLoopDemo demo = new ClosedLoopDemo(translatorSide, collectorSide, stores, loss, seed,
            workerCount)
            .injectRemoteAccessError(injectAt);
        final Samples[] samples = new Samples[collectorSide.collectors().size()];
        for (int i = 0; i < samples.length; i++)
        {
            samples[i] = new Samples();
        }
        final long start = System.nanoTime();
        if (!demo.connect())
        {
            System.err.println("dta demo: connection set-up failed:");
            for (final String failure : demo.connectionFailures())
            {
                System.err.println("  " + failure);
            }
            return 1;
        }
        if (null != in)
        {
            feedCapture(demo, samples, collectorSide, translatorSide);
        }
        else
        {
            feedGenerated(demo, samples, collectorSide);
        }
        final double wallSeconds = (System.nanoTime() - start) / 1e9;
        final Map<String, Object> result = DemoSummary.of(collectorSide, demo, stores, sampleKeys(samples), loss, seed,
            wallSeconds);
        if (json)
        {
            System.out.println(new ObjectMapper().writeValueAsString(result));
        }
        else
        {
            DemoSummary.print(result);
        }
        return demo.quiescent() && 0 == demo.essentialOutstanding() ? 0 : 1;
    }

    private void feedCapture(
        final ClosedLoopDemo demo,
        final Samples[] samples,
        final ApplianceConfig collectorSide,
        final ApplianceConfig translatorSide) throws Exception
    {
        try (PcapReader reader = PcapReader.open(in).destinationMac(translatorSide.translator().mac()))
        {
            final CaptureProgress progress = CaptureProgress.of(reader, in, !noProgress);
            demo.run(pcapSource(reader, samples, collectorSide, progress));
            if (null != progress)
            {
                progress.finish(true);
            }
            if (reader.cutShort())
            {
                // Like tshark: every whole report was used; the demo completes, with a warning.
                System.err.println("dta demo: warning: " + reader.cutShortWarning());
            }
        }
    }

    private void feedGenerated(
        final ClosedLoopDemo demo, final Samples[] samples, final ApplianceConfig collectorSide) throws Exception
    {
        final GeneratorSettings settings = new GeneratorSettings().seed(seed).essentialFraction(essential)
            .retransmittable(retransmittable);
        if (null == mix)
        {
            settings.defaultMix(DEFAULT_MIX);
        }
        else
        {
            settings.mix(mix);
        }
        final ReportGenerator generator = new ReportGenerator(collectorSide, settings);
        final FrameSource source =
            SourceProgress.of(generatedSource(generator, reports, samples, collectorSide), reports, !noProgress);
        demo.run(source);
        SourceProgress.finish(source);
    }

    /**
     * The last report of each primitive, for sample queries; for Key-Write the last essential one when there is
     * one (a later non-essential report may have been dropped in a grace period, and its query would find nothing).
     */
    private static final class Samples
    {
        long keyWriteKey = -1;
        int keyWriteRedundancy;
        boolean keyWriteEssential;
        long counterKey = -1;
        int counterRedundancy;
        long postcardKey = -1;

        void take(final Primitive primitive, final long key, final int redundancy, final boolean essential)
        {
            if (Primitive.KEY_WRITE == primitive && (essential || !keyWriteEssential))
            {
                keyWriteKey = key;
                keyWriteRedundancy = redundancy;
                keyWriteEssential = essential;
            }
            else if (Primitive.KEY_INCREMENT == primitive)
            {
                counterKey = key;
                counterRedundancy = redundancy;
            }
            else if (Primitive.POSTCARD == primitive)
            {
                postcardKey = key;
            }
        }
    }

    private static int collectorIndex(final List<CollectorConfig> collectors, final int ip)
    {
        for (int i = 0; i < collectors.size(); i++)
        {
            if (collectors.get(i).ip() == ip)
            {
                return i;
            }
        }
        return -1;
    }

    private String argumentProblem()
    {
        if (loss < 0 || loss >= 1)
        {
            return "--loss must be in [0, 1), not " + loss;
        }
        if (essential < 0 || essential > 1)
        {
            return "--essential must be in [0, 1], not " + essential;
        }
        if (reports <= 0)
        {
            return "--reports must be positive, not " + reports;
        }
        if (injectAt < 0)
        {
            return "--inject-remote-access-error must not be negative, not " + injectAt;
        }
        // Both would be silently ignored with a capture, which brings its own reports and flags.
        if (null != in && (spec.commandLine().getParseResult().hasMatchedOption("--reports") ||
            spec.commandLine().getParseResult().hasMatchedOption("--mix") ||
            spec.commandLine().getParseResult().hasMatchedOption("--essential") || retransmittable))
        {
            return "--reports, --mix, --essential and --retransmittable describe generated traffic; with --in the " +
                "capture's reports " +
                "are used";
        }
        return null;
    }

    private static FrameSource pcapSource(
        final PcapReader reader, final Samples[] perCollector, final ApplianceConfig appliance,
        final CaptureProgress progress)
    {
        final FrameDecoder decoder = TranslatorEngine.configureDecoder(new FrameDecoder(), appliance);
        final List<CollectorConfig> collectors = appliance.collectors();
        final int maxRedundancy = appliance.redundancy().max();
        return FrameSource.of(reader, (buffer, offset, length) ->
        {
            if (null != progress)
            {
                progress.frame();
            }
            // The capture's own reports give the sample queries, as the generator's do.
            if (FrameKind.DTA == decoder.decode(buffer, offset, length))
            {
                final int collector = collectorIndex(collectors, decoder.ipv4().dst());
                if (collector >= 0)
                {
                    sample(decoder, perCollector[collector], maxRedundancy);
                }
            }
        });
    }

    private static void sample(final FrameDecoder decoder, final Samples samples, final int maxRedundancy)
    {
        final boolean essential = decoder.dtaBase().essential();
        switch (decoder.dtaOpcode())
        {
            case DtaOpcode.KEY_WRITE ->
            {
                final int n = decoder.keyWrite().redundancy();
                if (n >= 1 && n <= maxRedundancy)
                {
                    samples.take(Primitive.KEY_WRITE, decoder.keyWrite().key(), n, essential);
                }
            }
            case DtaOpcode.KEY_INCREMENT ->
            {
                final int n = decoder.keyIncrement().redundancy();
                if (n >= 1 && n <= maxRedundancy)
                {
                    samples.take(Primitive.KEY_INCREMENT, decoder.keyIncrement().key(), n, essential);
                }
            }
            case DtaOpcode.POSTCARD -> samples.take(Primitive.POSTCARD, decoder.postcard().key(), 0, essential);
            default ->
            {
                // Append and sketch samples come from the stores, not from the reports.
            }
        }
    }

    private static FrameSource generatedSource(
        final ReportGenerator generator, final long count, final Samples[] perCollector,
        final ApplianceConfig appliance)
    {
        final List<CollectorConfig> collectors = appliance.collectors();
        return new GeneratedReportSource(generator, count, g ->
        {
            int collector = 0;
            while (collector < collectors.size() - 1 && collectors.get(collector).ip() != g.collectorIp())
            {
                collector++;
            }
            if (null == g.badKind())
            {
                perCollector[collector].take(g.primitive(), g.key(), g.redundancy(), g.essential());
            }
        });
    }

    private static List<DemoQueries.Keys> sampleKeys(final Samples[] samples)
    {
        final List<DemoQueries.Keys> keys = new ArrayList<>();
        for (final Samples s : samples)
        {
            keys.add(new DemoQueries.Keys(s.keyWriteKey, s.keyWriteRedundancy, s.counterKey, s.counterRedundancy,
                s.postcardKey));
        }
        return keys;
    }
}
