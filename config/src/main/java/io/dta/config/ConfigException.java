package io.dta.config;

import java.util.List;

/**
 * A configuration was refused. Holds every problem found, each a {@code key.path: reason} line, so an operator
 * fixes the whole file in one go; the message joins them one per line.
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * Create from a non-empty list of problems.
     *
     * @param problems the {@code path: reason} lines.
     */
    public ConfigException(final List<String> problems)
    {
        super(message(problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * Create from a single problem with its cause.
     *
     * @param problem the {@code path: reason} line.
     * @param cause   the underlying exception.
     */
    public ConfigException(final String problem, final Throwable cause)
    {
        super(message(List.of(problem)), cause);
        this.problems = List.of(problem);
    }

    /**
     * Every problem found, in document order as far as possible.
     *
     * @return the {@code path: reason} lines.
     */
    public List<String> problems()
    {
        return problems;
    }

    private static String message(final List<String> problems)
    {
        final StringBuilder sb = new StringBuilder("invalid configuration (")
            .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems").append("):");
        for (final String p : problems)
        {
            sb.append(System.lineSeparator()).append("  ").append(p);
        }
        return sb.toString();
    }
}
