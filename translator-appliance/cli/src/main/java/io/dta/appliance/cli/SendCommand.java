package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.dpdk.FixedRateSender;
import io.dta.codec.pcap.PcapReader;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mempool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code dta send}: a capture's frames sent through a DPDK port at a fixed rate, to offer {@code dta run} a known load.
 */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Send the frames of a capture through a DPDK port at a fixed rate (frames per second), to drive dta run at a " +
            "known offered load. The frames are loaded once and sent in order, --loop times over or for --duration " +
            "seconds; bursts leave at their due times, so the rate holds up to what one core can copy and the " +
            "device take. Prints the frames sent, the first and last bursts' times and the achieved rate."
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = { "0:sent", "1:the capture could not be read, or DPDK failed", "2:bad options" })
public final class SendCommand implements Callable<Integer>
{
    private static final int POOL_MBUFS = 8191;

    @Mixin
    private EalOptions eal = new EalOptions();

    @Option(names = "--in", required = true, paramLabel = "CAPTURE", description = "the frames to send (pcap or pcapng)")
    private Path in;

    @Option(names = "--port", defaultValue = "0", paramLabel = "PORT",
        description = "the port to send on: an ethdev name (net_memif0) or a port id (default ${DEFAULT-VALUE})")
    private String port;

    @Option(names = "--pps", required = true, paramLabel = "N", description = "frames per second")
    private long pps;

    @Option(names = "--loop", defaultValue = "1", paramLabel = "K", description = "passes over the capture " +
        "(default ${DEFAULT-VALUE}); with --duration, as many as fit")
    private long loop;

    @Option(names = "--duration", paramLabel = "S", description = "send for this many seconds instead of --loop passes")
    private Double duration;

    @Option(names = "--json", description = "print the result as one JSON object")
    private boolean json;

    @Override
    public Integer call()
    {
        final String problem = pps < 1 ? "--pps must be at least 1: " + pps : loop < 1 ? "--loop must be at least 1: " +
            loop : null != duration && !(duration > 0) ? "--duration must be more than 0 s: " + duration :
            eal.contradiction();
        if (null != problem)
        {
            System.err.println("dta send: " + problem);
            return 2;
        }
        final List<byte[]> frames;
        try
        {
            frames = load(in);
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("dta send: " + in + ": " + ex.getMessage());
            return 1;
        }
        if (frames.isEmpty())
        {
            System.err.println("dta send: " + in + " holds no frames");
            return 1;
        }
        if (!DpdkLibrary.isAvailable())
        {
            System.err.println("dta send: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        return send(frames);
    }

    private int send(final List<byte[]> frames)
    {
        final int longest = frames.stream().mapToInt(f -> f.length).max().orElse(0);
        final long total = null == duration ? loop * frames.size() : Long.MAX_VALUE;
        final AtomicBoolean stopped = new AtomicBoolean();
        final Thread hook = new Thread(() -> stopped.set(true));
        Runtime.getRuntime().addShutdownHook(hook);
        try (Eal e = Eal.init(eal.args("send"));
            Mempool pool = Mempool.create("send_pool", POOL_MBUFS, 256, Mempool.dataRoomFor(longest)))
        {
            final EthPort out = EthPort.open(portId(e, port), pool, 1024, 1024, false);
            final long end = null == duration ? Long.MAX_VALUE : System.nanoTime() + (long)(duration * 1e9);
            final FixedRateSender.Result r = FixedRateSender.send(out.queue(0), pool, frames, pps, total,
                () -> stopped.get() || System.nanoTime() - end >= 0);
            out.close();
            print(r, frames.size());
            return 0;
        }
        catch (final RuntimeException ex)
        {
            System.err.println("dta send: " + ex.getMessage());
            return 1;
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException shuttingDown)
            {
                // The JVM is exiting on a signal: the hook has run.
            }
        }
    }

    private void print(final FixedRateSender.Result r, final int captureFrames)
    {
        final double seconds = (r.lastNanos() - r.firstNanos()) / 1e9;
        if (json)
        {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("in", in.toString());
            m.put("captureFrames", captureFrames);
            m.put("targetPps", pps);
            m.put("framesSent", r.sent());
            m.put("framesNotTaken", r.notTaken());
            m.put("firstBurstNanos", r.firstNanos());
            m.put("lastBurstNanos", r.lastNanos());
            m.put("seconds", seconds);
            m.put("achievedPps", Math.round(r.achievedPps()));
            try
            {
                System.out.println(new ObjectMapper().writeValueAsString(m));
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
            return;
        }
        System.out.printf("dta send: %d frames sent (%d not taken by the device) from %s at %d pps: first burst at " +
            "%d ns, last at %d ns (%.3f s apart), achieved %.0f pps%n", r.sent(), r.notTaken(), in, pps,
            r.firstNanos(), r.lastNanos(), seconds, r.achievedPps());
    }

    private static List<byte[]> load(final Path capture) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                frames.add(frame);
            }
            if (reader.cutShort())
            {
                // As dta replay and dta demo say it: every whole frame is sent.
                System.err.println("dta send: warning: " + reader.cutShortWarning());
            }
        }
        return frames;
    }

    private static int portId(final Eal e, final String spec)
    {
        return !spec.isEmpty() && spec.length() < 6 && spec.chars().allMatch(Character::isDigit) ?
            Integer.parseInt(spec) : e.portId(spec);
    }
}
