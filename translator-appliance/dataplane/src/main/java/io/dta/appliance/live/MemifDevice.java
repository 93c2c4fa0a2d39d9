package io.dta.appliance.live;

import java.nio.file.Path;

/**
 * What a {@code --vdev net_memif...} specification says that the live data plane acts on: the device's name, its
 * role and its socket file. Read as DPDK 22.11's memif driver reads them: the role by substring ({@code server} or
 * {@code master} make a server; client is the default), the socket {@value #DEFAULT_SOCKET} unless given, and an
 * abstract socket (no file) unless {@code socket-abstract=no}.
 *
 * @param name       the device name, e.g. {@code net_memif0}.
 * @param server     true for the server role.
 * @param socketFile the socket's file, or null for an abstract socket.
 */
record MemifDevice(String name, boolean server, Path socketFile)
{
    /** DPDK 22.11's memif socket when the device names none. */
    static final String DEFAULT_SOCKET = "/run/memif.sock";

    /**
     * @param spec a {@code --vdev} specification.
     * @return the memif device it makes, or null for another driver's device.
     */
    static MemifDevice parse(final String spec)
    {
        final String[] parts = spec.split(",");
        if (!parts[0].startsWith("net_memif"))
        {
            return null;
        }
        boolean server = false;
        String socket = DEFAULT_SOCKET;
        boolean abstractSocket = true;
        for (int i = 1; i < parts.length; i++)
        {
            final int eq = parts[i].indexOf('=');
            final String key = eq < 0 ? parts[i] : parts[i].substring(0, eq);
            final String value = eq < 0 ? "" : parts[i].substring(eq + 1);
            switch (key)
            {
                case "role" -> server = value.contains("server") || value.contains("master");
                case "socket" -> socket = value;
                case "socket-abstract" -> abstractSocket = !"no".equals(value);
                default ->
                {
                }
            }
        }
        return new MemifDevice(parts[0], server, abstractSocket || socket.isEmpty() ? null : Path.of(socket));
    }
}
