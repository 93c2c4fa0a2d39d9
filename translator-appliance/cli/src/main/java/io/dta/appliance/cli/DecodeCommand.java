package io.dta.appliance.cli;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.io.RunFiles;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.pcap.PcapFormatException;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.FileErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta decode}: a tshark-like view of DTA reports and RoCEv2 frames that verifies the ICRC and the IPv4
 * header checksum.
 */
@Command(
    name = "decode",
    mixinStandardHelpOptions = true,
    description = {
        "Decode a pcap capture of DTA reports and RoCEv2 frames, verifying ICRC and IPv4 header checksums.",
        "Prints one line per frame then a summary, or with --json one JSON object per frame (JSON Lines).",
        "Exit status: 0 when the file was read (even with bad frames, or cut short inside its last packet: a",
        "warning follows the whole frames), 1 when it is not a readable pcap." })
public final class DecodeCommand implements Callable<Integer>
{
    /** Frames between checks that standard output still takes what is printed. */
    private static final int OUTPUT_CHECK_FRAMES = 256;

    @Parameters(index = "0", paramLabel = "FILE.pcap", description = "libpcap or pcapng capture (Ethernet, Linux cooked SLL/SLL2 or raw IP)")
    private Path file;

    @Option(names = "--json", description = "one JSON object per frame, one per line; no summary")
    private boolean json;

    @Option(names = { "-c", "--count" }, paramLabel = "N",
        description = "stop after N frames, as tshark -c does (default: every frame)")
    private long count = Long.MAX_VALUE;

    @Option(names = "--no-progress", description = "never show the progress through the capture on standard error " +
        "(shown on a terminal when standard output is not one)")
    private boolean noProgress;

    @Option(names = "--dta-port", defaultValue = "40040", description = "UDP port of DTA reports (default: ${DEFAULT-VALUE})")
    private int dtaPort;

    @Option(names = "--base-header", defaultValue = "auto",
        description = "DTA base header form: 3, 2 or auto (told apart by opcode and UDP length; default: ${DEFAULT-VALUE})")
    private String baseHeader;

    @Option(names = "--keywrite-data", defaultValue = "4",
        description = "data bytes of a Key-Write report: slot size - 4 (default: ${DEFAULT-VALUE})")
    private int keyWriteDataLength;

    @Option(names = "--config", paramLabel = "FILE", description = "read reports as the translator of this " +
        "configuration reads them (its reports.udpPort, reports.baseHeader, reports.verifyChecksums and smallest " +
        "Key-Write slot) instead of --dta-port, --base-header and --keywrite-data")
    private Path configFile;

    @Spec
    private CommandSpec spec;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call()
    {
        final DtaBaseHeaderForm form = switch (baseHeader.trim().toLowerCase())
        {
            case "3" -> DtaBaseHeaderForm.THREE;
            case "2" -> DtaBaseHeaderForm.TWO;
            case "auto" -> DtaBaseHeaderForm.AUTO;
            default -> null;
        };
        final String problem = optionProblem(form);
        if (null != problem)
        {
            System.err.println("dta decode: " + problem);
            return 2;
        }
        final String unreadable = FileErrors.unreadable(file);
        if (null != unreadable)
        {
            System.err.println("dta decode: cannot read " + file + ": " + unreadable);
            return 1;
        }
        final FrameDecoder decoder = decoder(form);
        if (null == decoder)
        {
            return 2;
        }
        final Tally tally = new Tally();
        final PrintWriter out = new PrintWriter(new BufferedWriter(
            new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16), false);
        final String cutShort;
        // A signal ends the JVM through its shutdown hooks, which say so in one line, as every command does.
        try (RunFiles signalled = RunFiles.onSignal("decode", null, System.err);
            PcapReader reader = PcapReader.open(file))
        {
            cutShort = decodeAll(reader, decoder, out, tally);
        }
        catch (final PcapFormatException ex)
        {
            out.flush();
            System.err.println("dta decode: " + ex.getMessage());
            return 1;
        }
        catch (final IOException ex)
        {
            out.flush();
            System.err.println("dta decode: cannot read " + file + ": " + FileErrors.reason(file, ex));
            return 1;
        }
        finish(out, tally, cutShort);
        return 0;
    }

    /**
     * The totals (text only), then the warning of a capture cut short: after every whole frame, as tshark warns.
     */
    private void finish(final PrintWriter out, final Tally tally, final String cutShort)
    {
        if (!json)
        {
            final Map<FrameKind, Long> kinds = tally.kinds;
            out.printf("%n%d frames: %d dta, %d roce, %d other, %d malformed; %d bad ICRC, %d bad IPv4 checksum%n",
                tally.frames, kinds.getOrDefault(FrameKind.DTA, 0L), kinds.getOrDefault(FrameKind.ROCE, 0L),
                kinds.getOrDefault(FrameKind.OTHER, 0L), kinds.getOrDefault(FrameKind.MALFORMED, 0L), tally.badIcrc,
                tally.badIpChecksum);
        }
        out.flush();
        if (null != cutShort)
        {
            // After every whole frame, as tshark warns: the file was read, so the exit status stays 0.
            System.err.println("dta decode: warning: " + cutShort);
        }
    }

    private String optionProblem(final DtaBaseHeaderForm form)
    {
        if (null == form)
        {
            return "--base-header must be 3, 2 or auto, not '" + baseHeader + "'";
        }
        if (dtaPort < 0 || dtaPort > 65535)
        {
            return "--dta-port must be a UDP port, 0..65535, not " + dtaPort;
        }
        if (keyWriteDataLength != 4 && keyWriteDataLength != 12 && keyWriteDataLength != 28)
        {
            return "--keywrite-data must be 4, 12 or 28 (slot size 8, 16 or 32 minus 4)";
        }
        if (count < 1)
        {
            return "--count must be at least 1, not " + count;
        }
        return null;
    }

    /**
     * @return the decoder of the options or of {@code --config}, or null when they are refused (said).
     */
    private FrameDecoder decoder(final DtaBaseHeaderForm form)
    {
        if (null == configFile)
        {
            return new FrameDecoder().dtaPort(dtaPort).baseHeaderForm(form).keyWriteDataLength(keyWriteDataLength);
        }
        for (final String option : new String[] { "--dta-port", "--base-header", "--keywrite-data" })
        {
            if (spec.commandLine().getParseResult().hasMatchedOption(option))
            {
                System.err.println("dta decode: " + option + " and --config contradict each other (the " +
                    "configuration sets it)");
                return null;
            }
        }
        final ConfigOption option = new ConfigOption();
        option.file = configFile;
        final ApplianceConfig config = option.load("decode");
        return null == config ? null : TranslatorEngine.configureDecoder(new FrameDecoder(), config);
    }

    /**
     * Decodes and prints up to {@code --count} frames, counting them in {@code tally}.
     *
     * @return the warning of a capture cut short, or null.
     */
    private String decodeAll(
        final PcapReader reader, final FrameDecoder decoder, final PrintWriter out, final Tally tally)
        throws IOException
    {
        final FrameDescriber describer = new FrameDescriber();
        final CaptureProgress progress =
            CaptureProgress.of(reader, file, !noProgress && !StderrTerminal.isStdoutTerminal());
        while (tally.frames < count && reader.next())
        {
            final long frames = ++tally.frames;
            if (null != progress)
            {
                progress.frame();
            }
            if (0 == (frames & (OUTPUT_CHECK_FRAMES - 1)) && (out.checkError() || System.out.checkError()))
            {
                // Standard output was closed (dta decode big.pcap | head): the rest would go nowhere.
                break;
            }
            final FrameKind kind = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
            tally.count(kind, decoder);
            out.println(json ?
                describer.json(decoder, frames, reader.timestampNanos(), reader.capturedLength()) :
                describer.text(decoder, frames, reader.timestampNanos(), reader.capturedLength()));
        }
        final String cutShort = reader.cutShortWarning();
        if (null != progress)
        {
            progress.finish(tally.frames < count);
        }
        return cutShort;
    }

    /**
     * Frames decoded, by kind, and those with a bad ICRC or IPv4 checksum.
     */
    private static final class Tally
    {
        final Map<FrameKind, Long> kinds = new EnumMap<>(FrameKind.class);
        long frames;
        long badIcrc;
        long badIpChecksum;

        void count(final FrameKind kind, final FrameDecoder decoder)
        {
            kinds.merge(kind, 1L, Long::sum);
            if (FrameKind.ROCE == kind && !decoder.icrcValid())
            {
                badIcrc++;
            }
            if ((FrameKind.ROCE == kind || FrameKind.DTA == kind) && !decoder.ipChecksumValid())
            {
                badIpChecksum++;
            }
        }
    }
}
