package io.dta.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The problems found in one configuration, each {@code path: reason}, in the order found. A rule that depends on
 * another value asks {@link #has(String)} first, so one mistake is reported once rather than as a cascade.
 */
final class ConfigProblems
{
    private final List<String> problems = new ArrayList<>();

    /**
     * Report a problem.
     *
     * @param path   key path of the value at fault.
     * @param reason what is wrong with it.
     */
    void add(final String path, final String reason)
    {
        problems.add(path + ": " + reason);
    }

    /**
     * Whether a problem was reported at this key path or under it.
     *
     * @param path key path.
     * @return true if a problem's path is {@code path} or starts with it followed by {@code .} or {@code [}.
     */
    boolean has(final String path)
    {
        for (final String p : problems)
        {
            if (p.startsWith(path) && p.length() > path.length())
            {
                final char next = p.charAt(path.length());
                if (next == ':' || next == '.' || next == '[')
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Report a value used before at another path.
     *
     * @param seen  values seen so far, each with its path; {@code key} is added unless already there.
     * @param key   the value.
     * @param path  its key path.
     * @param shown the value as the message shows it.
     * @param why   what makes a repetition wrong, appended to the message.
     * @param <K>   type of the value.
     */
    <K> void unique(final Map<K, String> seen, final K key, final String path, final String shown, final String why)
    {
        final String previous = seen.putIfAbsent(key, path);
        if (null != previous)
        {
            add(path, shown + " already used by " + previous + why);
        }
    }

    boolean isEmpty()
    {
        return problems.isEmpty();
    }

    List<String> list()
    {
        return problems;
    }
}
