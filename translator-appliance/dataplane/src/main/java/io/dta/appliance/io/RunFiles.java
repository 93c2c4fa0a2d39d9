package io.dta.appliance.io;

import org.agrona.IoUtil;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The files of one run that a signal must not leave behind: its temporary files (a copy of an input, a capture being
 * re-stamped, a demo's store directory) and the outputs it has started writing. Every command that writes files runs
 * inside one, so a signal ends each of them alike: one line on stderr, what the run made and changed removed, what it
 * has not touched left as it was. SIGINT and SIGTERM end the JVM through its shutdown hooks, not
 * through the command's {@code finally} blocks, which never run; the hook of a {@code RunFiles} deletes the temporary
 * files made through it and, when the run has changed the output since it started, the output too, as a failed run
 * does ({@link OutputFile#removeFailed}: a regular file only), and says so on stderr. An earlier output the run has not
 * touched yet stays.
 * <p>
 * The main thread goes on running while the hook runs: the operations that create a temporary file or replace one
 * file by another take the same lock as the hook, and are refused once it has run, so none of them brings back
 * a file the hook has deleted.
 */
public final class RunFiles implements AutoCloseable
{
    private final String command;
    private final Path output;
    private final PrintStream err;
    private final List<Output> outputs = new ArrayList<>();
    private final List<Path> temporary = new ArrayList<>();
    private final Thread hook;
    private boolean stopped;

    private RunFiles(final String command, final Path output, final PrintStream err, final boolean onSignal)
    {
        this.command = command;
        this.output = output;
        this.err = err;
        if (null != output)
        {
            outputs.add(new Output(output, State.of(output)));
        }
        this.hook = onSignal ? new Thread(this::stop, "dta-" + command + "-files") : null;
        if (null != hook)
        {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * Deletes the temporary files, and the output once changed, when a signal ends the process before
     * {@link #close()}.
     *
     * @param command the command's name, for the line on stderr ({@code replay}).
     * @param output  the output as given, or null.
     * @param err     where the line goes.
     * @return the files of the run.
     */
    public static RunFiles onSignal(final String command, final Path output, final PrintStream err)
    {
        return new RunFiles(command, output, err, true);
    }

    /**
     * Temporary files deleted by their owner only (a run called from a test or another command that cleans up itself).
     *
     * @return files of a run without a shutdown hook.
     */
    public static RunFiles unguarded()
    {
        return new RunFiles("run", null, System.err, false);
    }

    /**
     * One more output of the run (a command writing two files), removed as the first one is when a signal ends the
     * process after the run changed it.
     *
     * @param path the output as given, or null for none.
     * @return this.
     */
    public synchronized RunFiles alsoOutput(final Path path)
    {
        if (null != path)
        {
            outputs.add(new Output(path, State.of(path)));
        }
        return this;
    }

    /**
     * @return whether the output is no longer what it was when the run started (created, written or replaced).
     */
    public synchronized boolean outputChanged()
    {
        return null != output && outputs.getFirst().changed();
    }

    /**
     * Takes a step that creates or truncates an output or a file under a temporary directory (opening the writer of
     * a capture, creating a store) unless a signal is ending the process: the step and the clean-up of a signal do
     * not overlap, so no file appears after the clean-up has run.
     *
     * @param step the step.
     * @param <T>  what it makes.
     * @param <E>  what it may throw.
     * @return what the step made.
     * @throws E           as the step.
     * @throws IOException if a signal is ending the process.
     */
    public synchronized <T, E extends Exception> T create(final Step<T, E> step) throws E, IOException
    {
        refuseWhenStopped();
        return step.run();
    }

    /**
     * Before a step that makes files this does not know of (an EAL's runtime directory, {@code tx_pcap}'s output).
     *
     * @throws IOException if a signal is ending the process.
     */
    public synchronized void requireRunning() throws IOException
    {
        refuseWhenStopped();
    }

    /**
     * {@link Files#createTempFile(Path, String, String)}, deleted if a signal ends the process.
     *
     * @param directory where.
     * @param prefix    of the name.
     * @param suffix    of the name.
     * @return the new empty file.
     * @throws IOException if it cannot be created, or a signal is ending the process.
     */
    public synchronized Path createTempFile(final Path directory, final String prefix, final String suffix)
        throws IOException
    {
        refuseWhenStopped();
        return add(Files.createTempFile(directory, prefix, suffix));
    }

    /**
     * {@link Files#createTempDirectory(String)}, deleted with what it holds if a signal ends the process.
     *
     * @param prefix of the name.
     * @return the new empty directory.
     * @throws IOException if it cannot be created, or a signal is ending the process.
     */
    public synchronized Path createTempDirectory(final String prefix) throws IOException
    {
        refuseWhenStopped();
        return add(Files.createTempDirectory(prefix));
    }

    /**
     * Moves a temporary file over another file (the output), unless a signal is ending the process.
     *
     * @param from a file made by {@link #createTempFile}.
     * @param to   the file it replaces.
     * @throws IOException if it cannot be moved, or a signal is ending the process.
     */
    public synchronized void replace(final Path from, final Path to) throws IOException
    {
        refuseWhenStopped();
        Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        temporary.remove(from);
    }

    /**
     * Deletes a temporary file (or directory with what it holds) now; quietly, since a leftover must not hide the
     * outcome being reported.
     *
     * @param file made by this, or null.
     */
    public synchronized void delete(final Path file)
    {
        if (null != file)
        {
            IoUtil.delete(file.toFile(), true);
            temporary.remove(file);
        }
    }

    /**
     * Ends the guard at the end of the run (its own {@code finally} blocks delete what it made).
     */
    @Override
    public void close()
    {
        if (null != hook)
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // The JVM is shutting down: the hook runs (or has run) and cleans up.
            }
        }
    }

    private Path add(final Path file)
    {
        temporary.add(file);
        return file;
    }

    private void refuseWhenStopped() throws IOException
    {
        if (stopped)
        {
            throw new IOException("stopped by a signal");
        }
    }

    private synchronized void stop()
    {
        stopped = true;
        for (int i = temporary.size() - 1; i >= 0; i--)
        {
            IoUtil.delete(temporary.get(i).toFile(), true);
        }
        temporary.clear();
        final StringBuilder removed = new StringBuilder();
        for (final Output o : outputs)
        {
            if (o.changed() && OutputFile.removeFailed(o.path()))
            {
                removed.append(removed.isEmpty() ? "; " : ", ").append(o.path());
            }
        }
        err.println("dta " + command + ": stopped by a signal" + (removed.isEmpty() ? "" : removed + " removed"));
        err.flush();
    }

    /**
     * A step of a run that makes a file, for {@link #create}.
     *
     * @param <T> what it makes.
     * @param <E> what it may throw.
     */
    @FunctionalInterface
    public interface Step<T, E extends Exception>
    {
        /**
         * @return what the step made.
         * @throws E when it fails.
         */
        T run() throws E;
    }

    /**
     * An output and what it was when the run started.
     */
    private record Output(Path path, State before)
    {
        boolean changed()
        {
            return !Objects.equals(before, State.of(path));
        }
    }

    /**
     * What tells a file rewritten from the one that was there: its modification time alone can be the same within
     * the file system's clock tick, its size or identity then differ.
     */
    private record State(long modifiedNanos, long size, Object key)
    {
        static State of(final Path file)
        {
            try
            {
                final BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                return new State(a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.size(),
                    a.fileKey());
            }
            catch (final IOException ex)
            {
                return null;
            }
        }
    }
}
