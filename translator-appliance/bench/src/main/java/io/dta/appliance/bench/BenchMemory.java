package io.dta.appliance.bench;

import io.dta.appliance.engine.FrameLimits;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.Eal;
import io.dta.dpdk.Mempool;
import java.util.List;

/**
 * The EAL memory of a {@code dta bench --io dpdk} session: the default ({@link DpdkBench#EAL_MEMORY_MB}), what a
 * capture held in mbufs needs (its frames, the engine's frame pool, the EAL's own), whether the user's EAL arguments
 * put it on hugepages, and the capture a session cannot hold, refused before the EAL starts.
 */
public final class BenchMemory
{
    /**
     * The most EAL memory ({@code -m}, MB) a bench of a capture asks for by itself, its frames held in mbufs; a
     * capture that needs more is refused unless {@code --eal} gives {@code -m} (or {@code --socket-mem}) itself.
     */
    public static final int MAX_CAPTURE_MEMORY_MB = 4096;

    /**
     * The fewest frames an input holds: a capture with fewer is repeated whole until it holds at least this many, so
     * that a burst of 32 never takes all of it (the ring would run dry, {@code net_pcap} return short bursts).
     */
    public static final int MIN_SOURCE_FRAMES = 64;

    /** Mbufs of the pool the engine's frames come from (with {@code net_pcap}, the capture's copies too). */
    private static final int FRAME_POOL_MBUFS = 16383;
    /** Per mbuf beyond its data room: the mbuf header, the mempool's object header and padding. */
    private static final int MBUF_OVERHEAD = 256;
    /** The EAL's own needs beside the pools (rings, ports, its heap), MB. */
    private static final int EAL_BASE_MB = 64;
    /** The largest data room of an mbuf (a 16-bit field). */
    private static final int MAX_DATA_ROOM = 0xFFFF;
    /** The longest frame one mbuf holds: the largest data room less the headroom. */
    private static final int MAX_MBUF_FRAME = 2 * MAX_DATA_ROOM - Mempool.dataRoomFor(MAX_DATA_ROOM);
    private BenchMemory()
    {
    }

    /**
     * @param extraEalArgs the user's EAL arguments.
     * @return the EAL arguments a bench session starts with, less its devices: what decides its pages and memory.
     */
    public static List<String> sessionEalArgs(final List<String> extraEalArgs)
    {
        return sessionEalArgs(extraEalArgs, DpdkBench.EAL_MEMORY_MB);
    }

    /**
     * @param extraEalArgs the user's EAL arguments.
     * @param memoryMb     the EAL memory ({@code -m}) unless the user's arguments say otherwise.
     * @return the EAL arguments a bench session starts with, less its devices: what decides its pages and memory.
     */
    public static List<String> sessionEalArgs(final List<String> extraEalArgs, final int memoryMb)
    {
        return Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0, memoryMb), extraEalArgs);
    }

    /**
     * How many frames the input of a bench of these frames holds: all of them, repeated whole until there are at
     * least {@link #MIN_SOURCE_FRAMES}.
     *
     * @param frames the frames (a capture's).
     * @return how many frames the input holds.
     */
    public static int sourceFrames(final BenchInput frames)
    {
        final int count = frames.count();
        return count * ((MIN_SOURCE_FRAMES + count - 1) / count);
    }

    /**
     * The EAL memory a bench of these frames needs: every frame of the input in an mbuf ({@code net_pcap}'s
     * {@code infinite_rx} loads them all at start, the ring holds them all) beside the frame pool, each mbuf with a
     * data room for the longest frame it may hold, at the cost per mbuf of the pages the EAL runs on
     * ({@link #mbufBytes}: about twice the mbuf on {@code --no-huge}'s 4 KB pages, the mbuf and an eighth on
     * hugepages), and the EAL's own needs.
     *
     * @param frames       the frames.
     * @param config       the configuration the engine runs with (its path MTUs size the frames it builds).
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param hugepages    whether the EAL runs on hugepages ({@link #onHugepages}).
     * @return megabytes.
     */
    public static long memoryMegabytes(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final DpdkBench.Input input,
        final boolean hugepages)
    {
        final int frameRoom = frameDataRoom(frames, config);
        final int inputRoom = Mempool.dataRoomFor(frames.maxLength());
        final long bytes = DpdkBench.Input.PCAP == input ?
            (long)(FRAME_POOL_MBUFS + sourceFrames) * mbufBytes(Math.max(frameRoom, inputRoom), hugepages) :
            FRAME_POOL_MBUFS * mbufBytes(frameRoom, hugepages) + (long)sourceFrames * mbufBytes(inputRoom, hugepages);
        return EAL_BASE_MB + ((bytes + (1 << 20) - 1) >> 20);
    }

    /**
     * @param userEalArgs the user's EAL arguments (with {@code --hugepages}, the hugepage option it adds).
     * @return whether a bench session with them runs on hugepages (its arguments lack {@link Eal#NO_HUGE}).
     */
    public static boolean onHugepages(final List<String> userEalArgs)
    {
        return !sessionEalArgs(userEalArgs).contains(Eal.NO_HUGE);
    }

    /**
     * Why a bench of these frames through DPDK cannot work, said before any EAL starts: a frame longer than an mbuf
     * holds ({@code net_pcap}'s {@code infinite_rx} refuses mbuf chains, and the ring takes one mbuf per frame), or
     * more memory than the EAL has ({@code -m} of {@code sessionArgs}) or than a bench asks for by itself.
     *
     * @param frames       the frames.
     * @param config       the configuration the engine runs with.
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param userEalArgs  the user's EAL arguments (a {@code -m} or {@code --socket-mem} there is the memory).
     * @return the reason, or null when it can work.
     */
    public static String captureProblem(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final DpdkBench.Input input,
        final List<String> userEalArgs)
    {
        final int longest = frames.maxLength();
        if (Mempool.dataRoomFor(longest) > MAX_DATA_ROOM)
        {
            int index = 0;
            while (frames.length(index) != longest)
            {
                index++;
            }
            return "frame " + (index + 1) + " of " + frames.file() + " is " + longest + " bytes, longer than an mbuf " +
                "holds (" + MAX_MBUF_FRAME + " bytes; " + input.device() + " takes no mbuf chains there): bench it " +
                "with --io java";
        }
        final long needed = memoryMegabytes(frames, config, sourceFrames, input, onHugepages(userEalArgs));
        final String what = "the " + sourceFrames + " frames of " + frames.file() + " (the longest " + longest +
            " bytes) need about " + needed + " MB of EAL memory in mbufs through " + input.device();
        final long given = Eal.memoryMegabytes(userEalArgs);
        if (0 != given && given < needed)
        {
            return what + ", more than --eal gives (" + given + " MB)";
        }
        if (0 == given && needed > MAX_CAPTURE_MEMORY_MB)
        {
            return what + ", more than the " +
                MAX_CAPTURE_MEMORY_MB + " MB a bench takes by itself: bench a shorter capture, or give the memory " +
                "with --eal \"-m " + needed + "\"";
        }
        return null;
    }

    /**
     * @param frames       the frames.
     * @param config       the configuration the engine runs with.
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param userEalArgs  the user's EAL arguments (they say whether the EAL runs on hugepages).
     * @return the EAL memory a session asks for unless the user's arguments say: {@link #EAL_MEMORY_MB}, more when
     * the frames need it ({@link #memoryMegabytes}).
     */
    public static int sessionMemoryMegabytes(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final DpdkBench.Input input,
        final List<String> userEalArgs)
    {
        return (int)Math.max(DpdkBench.EAL_MEMORY_MB,
            memoryMegabytes(frames, config, sourceFrames, input, onHugepages(userEalArgs)));
    }

    /**
     * What one mbuf takes of the EAL's memory: on {@code --no-huge}'s 4 KB pages about twice the mbuf (the pool's
     * objects are laid out in page-sized chunks, so most of a page beyond a 2.4 KB mbuf is lost); on hugepages the
     * objects lie packed, so the mbuf itself and an eighth for the pool's and the heap's slack.
     */
    private static long mbufBytes(final int dataRoom, final boolean hugepages)
    {
        final long mbuf = dataRoom + MBUF_OVERHEAD;
        return hugepages ? mbuf + mbuf / 8 : 2 * mbuf;
    }

    /**
     * The data room of the engine's frames: the default for synthetic reports (as the bench always ran), for a
     * capture room for the largest frame the configuration's path MTUs allow.
     */
    public static int frameDataRoom(final BenchInput frames, final ApplianceConfig config)
    {
        return null == frames.file() ? Mempool.DEFAULT_DATA_ROOM :
            Mempool.dataRoomFor(FrameLimits.largestFrame(config.collectors()));
    }
}
