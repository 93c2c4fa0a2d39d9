package io.dta.appliance.metrics;

/**
 * A {@code HOST:PORT} to listen on: a name, an IPv4 address or a bracketed IPv6 address ({@code [::1]:9464}), and a
 * port 0..65535 (0: any free port).
 *
 * @param host the host, without brackets.
 * @param port the port.
 */
public record ListenAddress(String host, int port)
{
    /**
     * @param text {@code HOST:PORT}.
     * @return the address.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static ListenAddress parse(final String text)
    {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1)
        {
            throw new IllegalArgumentException("'" + text + "' is not HOST:PORT (for example 127.0.0.1:9464)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        else if (host.contains(":"))
        {
            throw new IllegalArgumentException("'" + text + "': write an IPv6 address in brackets, as [::1]:9464");
        }
        final int port;
        try
        {
            port = Integer.parseInt(text.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "': the port is not a number");
        }
        if (port < 0 || port > 65535 || host.isEmpty())
        {
            throw new IllegalArgumentException("'" + text + "': " + (host.isEmpty() ? "no host" : "port out of range 0..65535"));
        }
        return new ListenAddress(host, port);
    }
}
