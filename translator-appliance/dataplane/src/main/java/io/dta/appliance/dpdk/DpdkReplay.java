package io.dta.appliance.dpdk;

import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.OutputFile;
import io.dta.appliance.io.RunFiles;
import io.dta.appliance.replay.CaptureMerge;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.codec.pcap.PcapNormalizer;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.FileErrors;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Hugepages;
import io.dta.dpdk.Mempool;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code dta replay --io dpdk}: the replay of {@link io.dta.appliance.replay.Replay}, with the frames going through
 * DPDK. The reports come in on a {@code net_pcap} port ({@code rx_pcap=} the input capture), the engine reads them
 * in the mbufs and writes its frames into mbufs ({@link MbufFrameSink}) that the same port writes to the output
 * capture ({@code tx_pcap=}); collector responses, when given, come in on a second {@code net_pcap} port and are
 * merged by timestamp exactly as the Java replay merges them. The frames are identical to {@code --io java}.
 * <p>
 * The clock: {@code net_pcap} stamps every mbuf with the capture time, but in microseconds (it opens captures at
 * microsecond precision). To keep the nanoseconds of a nanosecond capture, and so the engine's timer decisions
 * identical to the Java replay's, the records of the capture are read alongside; each mbuf is checked
 * against its record (same length, same microsecond) so the two can never drift apart silently. The output
 * capture is written by {@code net_pcap} (stamped with the time of writing), then re-stamped with the engine clock of
 * each frame ({@link FrameTimeLog}), so that it is byte-identical to the Java replay's.
 * <p>
 * Link types: {@code net_pcap} hands the bytes of every record to the port as they are, whatever the capture's link
 * type. So a capture with packets of another link type than Ethernet (Linux cooked SLL/SLL2, raw IP/IPv4: see
 * {@link io.dta.codec.pcap.LinkLayerAdapter}) is first copied, as the Ethernet frames the Java replay sees, to a
 * temporary classic capture with nanosecond timestamps ({@link PcapNormalizer}) next to the output capture, which
 * is fed to {@code net_pcap} instead and deleted at the end. Ethernet captures, classic or pcapng, are fed as they
 * are. The record headers read alongside are always those of the capture as given, read as the Java replay reads it.
 * <p>
 * A capture cut short inside its last record: {@code net_pcap} (libpcap) delivers its whole records and stops at the
 * incomplete one, where {@link PcapReader} ends too ({@link PcapReader#cutShort()}), so the run ends there as the Java
 * replay's does, with the same output and the same {@link CutShortCapture} reports. The Ethernet copy of a
 * non-Ethernet capture cut short holds its whole records only.
 * <p>
 * Where libpcap reads a capture otherwise than {@link PcapReader} (and Wireshark): records longer than the snap
 * length, which libpcap cuts, make the capture go through the Ethernet copy too; seconds from 2^31 on, which libpcap
 * reads signed, are allowed for in the per-record check; a record longer than the data room arrives as an mbuf chain,
 * gathered into one frame (one above 65 535 bytes, which {@code net_pcap} cuts, is taken from the record read
 * alongside). Paths holding characters that separate device arguments reach {@code net_pcap} as symbolic links.
 * <p>
 * DPDK allows one EAL per process, so one process runs one DPDK replay.
 */
public final class DpdkReplay
{
    private static final int BURST = 32;
    private static final int POOL_SIZE = 8191;

    private DpdkReplay()
    {
    }

    /**
     * Runs one replay through DPDK (starts the EAL of this process, and stops it at the end).
     *
     * @param config      validated configuration.
     * @param reports     capture of reports.
     * @param responses   optional capture of collector responses, or null.
     * @param output      capture to write the RoCEv2 frames to.
     * @param extraEalArgs EAL arguments merged into the defaults ({@code -l 0 --no-huge -m 256 --no-pci}) by
     *                     {@link Eal#mergeArgs}: a hugepage option among them drops {@code --no-huge}, and the host's
     *                     hugepages are then checked first ({@link Hugepages#shortfallFor}).
     * @return the engine after the run.
     * @throws IOException if a capture cannot be read, or the Ethernet copy of a non-Ethernet one written.
     * @throws DpdkException if the EAL asks for hugepages the host does not have, or DPDK fails.
     */
    public static TranslatorEngine run(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<String> extraEalArgs) throws IOException
    {
        return run(config, reports, responses, output, extraEalArgs, new ArrayList<>());
    }

    /**
     * Runs one replay through DPDK (starts the EAL of this process, and stops it at the end), telling which inputs
     * were cut short.
     *
     * @param config       validated configuration.
     * @param reports      capture of reports.
     * @param responses    optional capture of collector responses, or null.
     * @param output       capture to write the RoCEv2 frames to.
     * @param extraEalArgs EAL arguments merged into the defaults ({@code -l 0 --no-huge -m 256 --no-pci}) by
     *                     {@link Eal#mergeArgs}: a hugepage option among them drops {@code --no-huge}, and the host's
     *                     hugepages are then checked first ({@link Hugepages#shortfallFor}).
     * @param cutShort     receives the inputs that end inside a record, reports first, as
     *                     {@link io.dta.appliance.replay.Replay} reports them.
     * @return the engine after the run.
     * @throws IOException if a capture cannot be read, or the Ethernet copy of a non-Ethernet one written.
     * @throws DpdkException if the EAL asks for hugepages the host does not have, or DPDK fails.
     */
    public static TranslatorEngine run(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<String> extraEalArgs,
        final List<CutShortCapture> cutShort) throws IOException
    {
        return run(config, reports, responses, output, extraEalArgs, cutShort, RunFiles.unguarded());
    }

    /**
     * Runs one replay through DPDK, its temporary files made through {@code files} (so that a signal ending the
     * process deletes them, and the output it was writing: see {@link RunFiles}).
     *
     * @param config       validated configuration.
     * @param reports      capture of reports.
     * @param responses    optional capture of collector responses, or null.
     * @param output       capture to write the RoCEv2 frames to.
     * @param extraEalArgs EAL arguments merged into the defaults, as {@link #run(ApplianceConfig, Path, Path, Path,
     *                     List, List)} takes them.
     * @param cutShort     receives the inputs that end inside a record, reports first.
     * @param files        the run's files.
     * @return the engine after the run.
     * @throws IOException if a capture cannot be read, or a temporary copy written.
     * @throws DpdkException if the EAL asks for hugepages the host does not have, or DPDK fails.
     */
    public static TranslatorEngine run(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<String> extraEalArgs,
        final List<CutShortCapture> cutShort,
        final RunFiles files) throws IOException
    {
        return runWorkers(config, reports, responses, output, extraEalArgs, cutShort, files).engines()[0];
    }

    /**
     * As {@link #run(ApplianceConfig, Path, Path, Path, List, List, RunFiles)}, with the configuration's
     * {@code workers.count} workers ({@link EngineGroup}: each frame to the worker RSS would give it, in turn on the
     * data-plane thread, so the output is the same at every run).
     *
     * @param config       validated configuration (static regions with a QP for every worker).
     * @param reports      capture of reports.
     * @param responses    optional capture of collector responses, or null.
     * @param output       capture to write the RoCEv2 frames to.
     * @param extraEalArgs EAL arguments merged into the defaults.
     * @param cutShort     receives the inputs that end inside a record.
     * @param files        the run's temporary files.
     * @return the workers after the run.
     * @throws IOException if a capture cannot be read or written.
     */
    public static EngineGroup runWorkers(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<String> extraEalArgs,
        final List<CutShortCapture> cutShort,
        final RunFiles files) throws IOException
    {
        // A link is written through, to its target, and stays a link. tx_pcap's file is read back to stamp the
        // engine's times on its frames: a device (/dev/null), a FIFO or a pipe (/dev/stdout) gets the stamped capture
        // copied into it at the end, as the Java replay would have written it there.
        final Path target = OutputFile.followLinks(output);
        final boolean plainOutput = OutputFile.isPlain(target);
        Path staging = null;
        Path reportsRead = null;
        Path responsesRead = null;
        Path reportsCopy = null;
        Path responsesCopy = null;
        try
        {
            staging = plainOutput ? null : files.createTempDirectory("dta-replay-out-");
            final Path deviceOutput = plainOutput ? target : staging.resolve("frames.pcap");
            final Path directory = deviceOutput.getParent();
            // net_pcap reads its inputs itself, after this has read them through: a pipe (--in <(zcat r.pcap.gz)) or
            // a FIFO, which can be read once, is first copied to a temporary file next to the output.
            reportsRead = streamCopy(reports, directory, files);
            responsesRead = null == responses ? null : streamCopy(responses, directory, files);
            final Path reportsGiven = null == reportsRead ? reports : reportsRead;
            final Path responsesGiven = null == responsesRead ? responses : responsesRead;
            checkInputs(reportsGiven, null == responses ? null : responsesGiven, plainOutput ? target : null, output);
            final long mac = config.translator().mac();
            try
            {
                reportsCopy = ethernetCopyIfNeeded(reportsGiven, directory, mac, files);
                responsesCopy = null == responses ? null : ethernetCopyIfNeeded(responsesGiven, directory, mac, files);
            }
            catch (final IOException | RuntimeException ex)
            {
                // A record damaged after a good header: the Java replay has opened (truncated) its output by then and
                // fails while writing it, so the run leaves no output, an earlier one of that name included. The
                // reading through here finds the damage before the output is written: it is emptied, as there, and
                // the command removes it as after any failed run that changed its output.
                if (plainOutput)
                {
                    emptyOutput(target);
                }
                throw ex;
            }
            final EngineGroup engine = runEal(
                config,
                null == reportsCopy ? reportsGiven : reportsCopy,
                null == responsesCopy ? responsesGiven : responsesCopy,
                reportsGiven,
                responsesGiven,
                reports,
                responses,
                deviceOutput,
                extraEalArgs,
                cutShort,
                files);
            if (!plainOutput)
            {
                copyInto(deviceOutput, output);
            }
            return engine;
        }
        catch (final IOException ex)
        {
            throw null == reportsRead && null == responsesRead ? ex :
                new IOException(givenNames(FileErrors.reason(ex), reports, reportsRead, responses, responsesRead), ex);
        }
        catch (final IllegalStateException ex)
        {
            throw null == reportsRead && null == responsesRead ? ex : new IllegalStateException(
                givenNames(ex.getMessage(), reports, reportsRead, responses, responsesRead), ex);
        }
        finally
        {
            files.delete(reportsCopy);
            files.delete(responsesCopy);
            files.delete(reportsRead);
            files.delete(responsesRead);
            files.delete(staging);
        }
    }

    /**
     * Reads the inputs' headers first: a capture that is none fails before the output is touched, and an earlier
     * output of that name stays as it was (as with the Java replay, which opens its readers before its writer).
     *
     * @param responses the responses capture, or null.
     * @param target    the plain output file the run writes, or null when it writes elsewhere first.
     */
    private static void checkInputs(final Path reports, final Path responses, final Path target, final Path output)
        throws IOException
    {
        checkHeader(reports);
        if (null != responses)
        {
            checkHeader(responses);
        }
        if (null != target)
        {
            requireWritable(output, target);
        }
    }

    /**
     * An Ethernet copy of a capture of another link type (or pcapng), or null when net_pcap reads it as it is.
     */
    private static Path ethernetCopyIfNeeded(
        final Path capture, final Path directory, final long mac, final RunFiles files) throws IOException
    {
        return PcapNormalizer.needsNormalizing(capture) ? ethernetCopy(capture, directory, mac, files) : null;
    }

    /**
     * The copy of an input that is not a regular file (a pipe, a FIFO, a character device), or null for a regular
     * file, which is read where it is.
     */
    private static Path streamCopy(final Path input, final Path directory, final RunFiles files) throws IOException
    {
        if (Files.isRegularFile(input))
        {
            return null;
        }
        final Path copy = files.createTempFile(directory, ".dta-replay-input-", ".pcap");
        try (InputStream in = Files.newInputStream(input))
        {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        }
        catch (final IOException ex)
        {
            files.delete(copy);
            throw new IOException(FileErrors.cannotRead(input, ex), ex);
        }
    }

    /**
     * A message about the copy of a streamed input names the input as given, as the Java replay's would.
     */
    private static String givenNames(
        final String message,
        final Path reports,
        final Path reportsRead,
        final Path responses,
        final Path responsesRead)
    {
        String named = null == message ? "" : message;
        if (null != reportsRead)
        {
            named = named.replace(reportsRead.toString(), reports.toString());
        }
        if (null != responsesRead)
        {
            named = named.replace(responsesRead.toString(), responses.toString());
        }
        return named;
    }

    private static void checkHeader(final Path capture) throws IOException
    {
        try (PcapReader ignored = PcapReader.open(capture))
        {
            // The header is read by the constructor.
        }
    }

    private static void emptyOutput(final Path target)
    {
        try (FileChannel ignored = FileChannel.open(target, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING))
        {
            // Emptied.
        }
        catch (final IOException ex)
        {
            // The damaged input is what the run reports; the command still removes what it can.
        }
    }

    private static void copyInto(final Path capture, final Path output) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(output))
        {
            Files.copy(capture, out);
        }
        catch (final IOException ex)
        {
            throw new IOException(FileErrors.cannotWrite(output, ex), ex);
        }
    }

    /**
     * Said before the EAL starts, in the Java replay's words: otherwise {@code net_pcap}'s own complaint comes from
     * inside the EAL start, and the error that stops the run names a temporary file made beside the output. Opened
     * without truncating, so an earlier file of that name keeps its contents (and modification time) until the run
     * really writes.
     */
    private static void requireWritable(final Path output, final Path target) throws IOException
    {
        try (FileChannel ignored = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE))
        {
            // Nothing to write yet.
        }
        catch (final IOException ex)
        {
            throw new IOException(FileErrors.cannotWrite(output, ex), ex);
        }
    }

    /**
     * The Ethernet copy of a capture that libpcap would read otherwise than {@code PcapReader}
     * ({@link PcapNormalizer#needsNormalizing}), in {@code directory}.
     */
    private static Path ethernetCopy(final Path capture, final Path directory, final long mac, final RunFiles files)
        throws IOException
    {
        final Path copy = files.createTempFile(directory, ".dta-replay-ethernet-", ".pcap");
        try
        {
            PcapNormalizer.normalize(capture, copy, mac);
            return copy;
        }
        catch (final IOException | RuntimeException ex)
        {
            files.delete(copy);
            throw ex;
        }
    }

    /**
     * @param reports         capture fed to {@code net_pcap} (the Ethernet copy, if one was made).
     * @param responses       likewise, or null.
     * @param reportsGiven    capture as given, whose records are read alongside.
     * @param responsesGiven  likewise, or null.
     * @param reportsName     the reports as the user named them, for messages (a pipe's copy is read).
     * @param responsesName   likewise, or null.
     * @param files           the run's files.
     */
    private static EngineGroup runEal(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path reportsGiven,
        final Path responsesGiven,
        final Path reportsName,
        final Path responsesName,
        final Path output,
        final List<String> extraEalArgs,
        final List<CutShortCapture> cutShort,
        final RunFiles files) throws IOException
    {
        files.requireRunning();
        try (DevargsPaths paths = new DevargsPaths(files);
            Eal eal = Eal.init(ealArgs(paths, reports, responses, output, extraEalArgs));
            Mempool pool = Mempool.create("replay_pool", POOL_SIZE, 256,
                Mempool.dataRoomFor(FrameLimits.largestFrame(config.collectors())));
            FrameTimeLog times = new FrameTimeLog(output.toAbsolutePath().getParent()))
        {
            final EthPort out = EthPort.open(eal.portId("net_pcap0"), pool, 1024, 1024, true);
            final EthPort back = null == responses ? null :
                EthPort.open(eal.portId("net_pcap1"), pool, 1024, 1024, true);
            final EngineGroup engine;
            try (MbufFrameSink sink = new MbufFrameSink(pool, TxQueue.lossless(out.queue(0), BURST), BURST);
                ReplayCursor in = new ReplayCursor(out, reportsGiven, reportsName, config.translator().mac());
                ReplayCursor answers = null == back ? null :
                    new ReplayCursor(back, responsesGiven, responsesName, config.translator().mac()))
            {
                sink.logTimes(times);
                engine = new EngineGroup(EngineGroup.workerConfigs(config, config.workers().count()), sink,
                    null != responses, config.workers().handOffQueueBytes());
                CaptureMerge.run(engine, in, answers);
                in.addIfCut(CutShortCapture.IN, cutShort);
                if (null != answers)
                {
                    answers.addIfCut(CutShortCapture.RESPONSES, cutShort);
                }
            }
            if (null != back)
            {
                back.close();
            }
            // Closing the port closes its tx capture; then its net_pcap times (of writing) become the engine's.
            out.close();
            times.restamp(output, files);
            return engine;
        }
    }

    /**
     * The EAL arguments of a replay: its {@code net_pcap} devices over the captures, merged with the user's; checked
     * for hugepages before the EAL starts, whose own "Cannot get hugepage information" does not say what to do.
     */
    private static List<String> ealArgs(
        final DevargsPaths paths,
        final Path reports,
        final Path responses,
        final Path output,
        final List<String> extraEalArgs) throws IOException
    {
        final List<String> vdevs = new ArrayList<>();
        vdevs.add("net_pcap0,rx_pcap=" + paths.of(reports) + ",tx_pcap=" + paths.of(output));
        if (null != responses)
        {
            vdevs.add("net_pcap1,rx_pcap=" + paths.of(responses));
        }
        final List<String> args = Eal.mergeArgs(
            Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-replay"), 0, 256, vdevs.toArray(new String[0])),
            extraEalArgs);
        final String missing = Hugepages.shortfallFor(args);
        if (null != missing)
        {
            throw new DpdkException("hugepages: " + missing, 0);
        }
        return args;
    }

    /**
     * The paths given to {@code net_pcap} in its device arguments ({@code rx_pcap=PATH,tx_pcap=PATH}), where
     * {@code ,}, {@code =}, {@code ;} and brackets separate arguments: a path holding any character other than plain
     * ones is given as a symbolic link of a plain name, in a temporary directory removed at the end (libpcap opens
     * through it; an output's link may dangle until libpcap creates the file).
     */
    private static final class DevargsPaths implements AutoCloseable
    {
        private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9/._+@%~: -]+");

        private final RunFiles files;
        private Path links;
        private int count;

        DevargsPaths(final RunFiles files)
        {
            this.files = files;
        }

        String of(final Path file) throws IOException
        {
            final Path absolute = file.toAbsolutePath();
            if (PLAIN.matcher(absolute.toString()).matches())
            {
                return absolute.toString();
            }
            if (null == links)
            {
                links = files.createTempDirectory("dta-replay-paths-");
                if (!PLAIN.matcher(links.toString()).matches())
                {
                    throw new IOException("cannot give " + absolute + " to net_pcap: its characters separate device " +
                        "arguments, and the temporary directory " + links + " has such characters too");
                }
            }
            return Files.createSymbolicLink(links.resolve("capture-" + count++ + ".pcap"), absolute).toString();
        }

        @Override
        public void close()
        {
            files.delete(links);
        }
    }
}
