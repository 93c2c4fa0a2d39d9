package io.dta.appliance.live;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * Removes the socket file a {@code net_memif} server killed without its clean-up (SIGKILL, a crash) left behind, which
 * would make the next server fail in EAL ({@code Failed to setup socket ...: Address already in use}) and the process
 * refuse to start for want of its port. Only a file socket ({@code socket-abstract=no}; an abstract one goes with its
 * process) of a server-role device is looked at, and only one nobody listens on is removed: a connect to it is
 * refused. A live memif server listens with SOCK_SEQPACKET, so this stream connect fails with "protocol wrong type"
 * before anything reaches it, and it is left alone, as is anything that is not a socket.
 */
final class StaleMemifSocket
{
    private StaleMemifSocket()
    {
    }

    /**
     * @param ealArgs the EAL arguments (their {@code --vdev} devices).
     * @param err     where the one line per removed file goes.
     * @param prefix  the process's message prefix, e.g. {@code dta run}.
     * @return how many stale socket files were removed.
     */
    static int removeStale(final List<String> ealArgs, final PrintStream err, final String prefix)
    {
        int removed = 0;
        for (final String spec : LivePortSpecs.virtualDevices(ealArgs))
        {
            final Path socket = serverFileSocket(spec);
            if (null != socket && isStale(socket))
            {
                try
                {
                    Files.deleteIfExists(socket);
                    removed++;
                    err.println(prefix + ": removed " + socket + ", a memif socket nobody listens on (left by a " +
                        "server that was killed)");
                }
                catch (final IOException ex)
                {
                    // EAL will fail on it and say so; this is only a courtesy.
                    err.println(prefix + ": warning: cannot remove the stale memif socket " + socket + ": " + ex);
                }
            }
        }
        return removed;
    }

    /**
     * @param spec a {@code --vdev} specification.
     * @return the socket file of a {@code net_memif} server with {@code socket-abstract=no}, or null.
     */
    static Path serverFileSocket(final String spec)
    {
        final MemifDevice device = MemifDevice.parse(spec);
        return null != device && device.server() ? device.socketFile() : null;
    }

    /**
     * @param socket a path.
     * @return true when it is a socket file that refuses connections: its listener is gone.
     */
    static boolean isStale(final Path socket)
    {
        try
        {
            if (!Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther())
            {
                return false;
            }
        }
        catch (final IOException ex)
        {
            return false;
        }
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            channel.connect(UnixDomainSocketAddress.of(socket));
            return false;
        }
        catch (final ConnectException ex)
        {
            return true;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return false;
        }
    }
}
