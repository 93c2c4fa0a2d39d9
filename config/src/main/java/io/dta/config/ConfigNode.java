package io.dta.config;

import java.util.List;
import java.util.Map;

/**
 * Minimal document tree the loader builds from the Jackson token stream. Unlike Jackson's own tree it keeps the
 * source text of every scalar, so that {@code 0x539}, {@code 1337} and {@code "0x539"} are all parsed by one
 * set of rules of ours rather than by whatever the YAML 1.1 resolver guessed (octal, sexagesimal, ...).
 */
sealed interface ConfigNode permits ConfigNode.MapNode, ConfigNode.ListNode, ConfigNode.ScalarNode
{
    /**
     * Kind of a scalar as the parser typed it.
     */
    enum Kind
    {
        STRING, INTEGER, FLOAT, BOOLEAN, NULL, OTHER
    }

    /**
     * A mapping, keys in document order.
     *
     * @param entries the entries.
     */
    record MapNode(Map<String, ConfigNode> entries) implements ConfigNode
    {
    }

    /**
     * A sequence.
     *
     * @param items the items.
     */
    record ListNode(List<ConfigNode> items) implements ConfigNode
    {
    }

    /**
     * A scalar with its source text.
     *
     * @param kind how the parser typed it.
     * @param text the text as written (without quotes).
     */
    record ScalarNode(Kind kind, String text) implements ConfigNode
    {
        boolean isNull()
        {
            return kind == Kind.NULL;
        }
    }

    /**
     * Short human description of a node for error messages.
     *
     * @param node the node.
     * @return e.g. {@code "abc"}, {@code 12}, {@code a mapping}.
     */
    static String describe(final ConfigNode node)
    {
        return switch (node)
        {
            case MapNode ignored -> "a mapping";
            case ListNode ignored -> "a list";
            case ScalarNode s ->
                s.kind() == Kind.STRING ? "\"" + ShortText.of(s.text()) + "\"" : ShortText.of(s.text());
        };
    }
}
