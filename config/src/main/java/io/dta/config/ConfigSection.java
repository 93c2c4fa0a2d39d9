package io.dta.config;

import static io.dta.config.ConfigLimits.MAX_MICROS;
import static io.dta.config.ConfigLimits.QPN_MAX;
import static io.dta.config.ConfigText.hex;
import static io.dta.config.ConfigText.parseInteger;
import static io.dta.config.ConfigText.suggest;
import static io.dta.config.ConfigText.text;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A mapping being read: its values by key, typed and range-checked, each problem reported with its key path to the
 * {@link ConfigProblems}; remembers which keys were asked for so that {@link #finish()} refuses the rest as unknown.
 */
final class ConfigSection
{
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final ConfigProblems problems;
    private final String path;
    private final Map<String, ConfigNode> entries;
    private final Set<String> known = new LinkedHashSet<>();

    ConfigSection(final ConfigProblems problems, final String path, final Map<String, ConfigNode> entries)
    {
        this.problems = problems;
        this.path = path;
        this.entries = entries;
    }

    String path()
    {
        return path;
    }

    String pathOf(final String key)
    {
        return path.isEmpty() ? ShortText.of(key) : path + "." + ShortText.of(key);
    }

    ConfigNode node(final String key)
    {
        known.add(key);
        final ConfigNode node = entries.get(key);
        return node instanceof ConfigNode.ScalarNode scalar && scalar.isNull() ? null : node;
    }

    boolean present(final String key)
    {
        return null != node(key);
    }

    ConfigSection section(final String key, final boolean required)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            if (required)
            {
                problems.add(pathOf(key), "required section missing");
            }
            return null;
        }
        if (node instanceof ConfigNode.MapNode map)
        {
            return new ConfigSection(problems, pathOf(key), map.entries());
        }
        problems.add(pathOf(key), "expected a mapping, got " + ConfigNode.describe(node));
        return null;
    }

    ConfigSection sectionOrEmpty(final String key)
    {
        final ConfigSection section = section(key, false);
        return null == section ? new ConfigSection(problems, pathOf(key), Map.of()) : section;
    }

    /**
     * Items of a list of mappings; an item that is not a mapping is reported and given as {@code null}.
     */
    List<ConfigSection> list(final String key, final boolean required)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            if (required)
            {
                problems.add(pathOf(key), "required; at least one collector is required");
            }
            return null;
        }
        if (!(node instanceof ConfigNode.ListNode listNode))
        {
            problems.add(pathOf(key), "expected a list, got " + ConfigNode.describe(node));
            return null;
        }
        final List<ConfigSection> items = new ArrayList<>();
        for (int i = 0; i < listNode.items().size(); i++)
        {
            final ConfigNode item = listNode.items().get(i);
            final String itemPath = pathOf(key) + "[" + i + "]";
            if (item instanceof ConfigNode.MapNode map)
            {
                items.add(new ConfigSection(problems, itemPath, map.entries()));
            }
            else
            {
                problems.add(itemPath, "expected a mapping, got " + ConfigNode.describe(item));
                items.add(null);
            }
        }
        return items;
    }

    long integer(final String key, final long min, final long max, final long defaultValue)
    {
        final ConfigNode node = node(key);
        return null == node ? defaultValue : checkedInteger(key, node, min, max, "", defaultValue);
    }

    long requiredInteger(final String key, final long min, final long max, final String note)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            problems.add(pathOf(key), "required");
            return min;
        }
        return checkedInteger(key, node, min, max, note, min);
    }

    long oneOf(final String key, final int[] allowed, final long defaultValue)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            return defaultValue;
        }
        final BigInteger value = integerValue(pathOf(key), node);
        if (null == value)
        {
            return defaultValue;
        }
        for (final int candidate : allowed)
        {
            if (value.equals(BigInteger.valueOf(candidate)))
            {
                return candidate;
            }
        }
        final StringBuilder list = new StringBuilder();
        for (final int candidate : allowed)
        {
            list.append(list.isEmpty() ? "" : ", ").append(candidate);
        }
        problems.add(pathOf(key), text(node) + " is not one of {" + list + "}");
        return defaultValue;
    }

    long address(final String key)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            problems.add(pathOf(key), "required");
            return 0;
        }
        final BigInteger value = integerValue(pathOf(key), node);
        if (null == value)
        {
            return 0;
        }
        if (value.signum() < 0 || value.compareTo(U64_MAX) > 0)
        {
            problems.add(pathOf(key), text(node) + " is out of range 0x0..0xffffffffffffffff");
            return 0;
        }
        return value.longValue();
    }

    private long checkedInteger(
        final String key, final ConfigNode node, final long min, final long max, final String note,
        final long fallback)
    {
        final BigInteger value = integerValue(pathOf(key), node);
        if (null == value)
        {
            return fallback;
        }
        if (value.compareTo(BigInteger.valueOf(min)) < 0 || value.compareTo(BigInteger.valueOf(max)) > 0)
        {
            if (max == Long.MAX_VALUE)
            {
                problems.add(pathOf(key), text(node) + (value.signum() < 0 || value.compareTo(BigInteger.valueOf(min))
                    < 0 ? " is less than " + min : " is too large") + note);
                return fallback;
            }
            final boolean hex = max >= QPN_MAX && max != MAX_MICROS;
            problems.add(pathOf(key), text(node) + " is out of range " +
                (hex ? hex(min, 0) + ".." + hex(max, 0) : min + ".." + max) + note);
            return fallback;
        }
        return value.longValue();
    }

    private BigInteger integerValue(final String keyPath, final ConfigNode node)
    {
        if (node instanceof ConfigNode.ScalarNode scalar &&
            (scalar.kind() == ConfigNode.Kind.INTEGER || scalar.kind() == ConfigNode.Kind.STRING))
        {
            final BigInteger value = parseInteger(scalar.text().strip());
            if (null != value)
            {
                return value;
            }
            final String t = scalar.text().strip();
            if (t.length() > 1 && t.charAt(0) == '0' && t.chars().allMatch(Character::isDigit))
            {
                problems.add(keyPath, text(node) + " has a leading zero (octal in some YAML readers); write it " +
                    "in decimal without leading zeros or in 0x-hex");
                return null;
            }
        }
        problems.add(keyPath, "expected an integer (decimal or 0x-hex), got " + ConfigNode.describe(node));
        return null;
    }

    boolean bool(final String key, final boolean defaultValue)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            return defaultValue;
        }
        // YAML 1.1 readers also type yes/no/on/off as booleans: only the words true and false are accepted
        if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.BOOLEAN)
        {
            final String word = scalar.text().strip().toLowerCase(Locale.ROOT);
            if (word.equals("true") || word.equals("false"))
            {
                return word.equals("true");
            }
        }
        problems.add(pathOf(key), "expected true or false, got " + ConfigNode.describe(node));
        return defaultValue;
    }

    String string(final String key, final String defaultValue)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            return defaultValue;
        }
        if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.STRING)
        {
            return scalar.text();
        }
        problems.add(pathOf(key), "expected a string, got " + ConfigNode.describe(node));
        return defaultValue;
    }

    long mac(final String key)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            problems.add(pathOf(key), "required");
            return 0;
        }
        if (node instanceof ConfigNode.ScalarNode scalar &&
            (scalar.kind() == ConfigNode.Kind.STRING || scalar.kind() == ConfigNode.Kind.INTEGER))
        {
            final long mac = NetAddress.parseMac(scalar.text().strip());
            if (mac == NetAddress.INVALID)
            {
                problems.add(pathOf(key), text(node) + " is not a MAC address (aa:bb:cc:dd:ee:ff; quote it in YAML)");
            }
            else if ((mac & 0x0100_0000_0000L) != 0)
            {
                problems.add(pathOf(key), text(node) + " is a multicast MAC address; a unicast address is required");
            }
            else if (mac == 0)
            {
                problems.add(pathOf(key), text(node) + " is the all-zero MAC address");
            }
            return mac;
        }
        problems.add(pathOf(key), "expected a MAC address string, got " + ConfigNode.describe(node));
        return 0;
    }

    int ipv4(final String key)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            problems.add(pathOf(key), "required");
            return 0;
        }
        if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.STRING)
        {
            final long ip = NetAddress.parseIpv4(scalar.text().strip());
            if (ip == NetAddress.INVALID)
            {
                problems.add(pathOf(key), text(node) + " is not a dotted-quad IPv4 address");
                return 0;
            }
            final int first = (int)(ip >>> 24);
            if (ip == 0 || ip == 0xFFFFFFFFL || first == 127 || (first & 0xF0) == 0xE0)
            {
                problems.add(pathOf(key), text(node) + " is not a unicast host address " +
                    "(0.0.0.0, broadcast, loopback and multicast are refused)");
            }
            return (int)ip;
        }
        problems.add(pathOf(key), "expected a dotted-quad IPv4 address string, got " + ConfigNode.describe(node));
        return 0;
    }

    BaseHeader baseHeader(final String key)
    {
        final String value = word(key);
        if (null == value)
        {
            return BaseHeader.THREE;
        }
        return switch (value)
        {
            case "3" -> BaseHeader.THREE;
            case "2" -> BaseHeader.TWO;
            case "auto" -> BaseHeader.AUTO;
            default ->
            {
                problems.add(pathOf(key), "\"" + value + "\" is not one of \"3\", \"2\", \"auto\"");
                yield BaseHeader.THREE;
            }
        };
    }

    ListLayout layout(final String key)
    {
        final String value = word(key);
        if (null == value)
        {
            return ListLayout.SEQUENCED;
        }
        return switch (value)
        {
            case "sequenced" -> ListLayout.SEQUENCED;
            case "reference" -> ListLayout.REFERENCE;
            default ->
            {
                problems.add(pathOf(key), "\"" + value + "\" is not one of sequenced, reference");
                yield ListLayout.SEQUENCED;
            }
        };
    }

    SketchType sketchType(final String key)
    {
        if (!present(key))
        {
            problems.add(pathOf(key), "required (count-min, count-sketch or hyperloglog)");
            return SketchType.COUNT_MIN;
        }
        final String value = word(key);
        for (final SketchType type : SketchType.values())
        {
            if (type.text().equals(value))
            {
                return type;
            }
        }
        if (null != value)
        {
            problems.add(pathOf(key), "\"" + value + "\" is not one of count-min, count-sketch, hyperloglog");
        }
        return SketchType.COUNT_MIN;
    }

    /**
     * A keyword: a string, or an integer written bare (YAML {@code baseHeader: 3}). Null when absent or
     * of the wrong type (reported).
     */
    private String word(final String key)
    {
        final ConfigNode node = node(key);
        if (null == node)
        {
            return null;
        }
        if (node instanceof ConfigNode.ScalarNode scalar &&
            (scalar.kind() == ConfigNode.Kind.STRING || scalar.kind() == ConfigNode.Kind.INTEGER))
        {
            return scalar.text().strip();
        }
        problems.add(pathOf(key), "expected a string, got " + ConfigNode.describe(node));
        return null;
    }

    void finish()
    {
        for (final String key : entries.keySet())
        {
            if (!known.contains(key))
            {
                final String hint = suggest(key, known);
                problems.add(pathOf(key), "unknown key" + (null != hint ? "; did you mean '" + hint + "'?" :
                    "; expected one of: " + String.join(", ", known)));
            }
        }
    }
}
