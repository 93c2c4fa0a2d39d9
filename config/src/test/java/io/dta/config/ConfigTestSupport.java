package io.dta.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers that derive test documents from the example by setting or removing values at key paths.
 */
final class ConfigTestSupport
{
    /**
     * Marker value: remove the key instead of setting it.
     */
    static final Object REMOVE = new Object();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private ConfigTestSupport()
    {
    }

    static String resource(final String name)
    {
        try (InputStream in = ConfigTestSupport.class.getClassLoader().getResourceAsStream(name))
        {
            if (null == in)
            {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The example as a mutable tree of maps and lists.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> exampleTree()
    {
        try
        {
            return YAML.readValue(resource("translator.yaml"), LinkedHashMap.class);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The example with values set (or removed) at paths such as {@code collectors[0].lists[1].qpn}, as JSON.
     *
     * @param pathsAndValues alternating path, value.
     * @return the JSON document.
     */
    static String exampleWith(final Object... pathsAndValues)
    {
        final Map<String, Object> tree = exampleTree();
        for (int i = 0; i < pathsAndValues.length; i += 2)
        {
            set(tree, (String)pathsAndValues[i], pathsAndValues[i + 1]);
        }
        return json(tree);
    }

    static String json(final Object tree)
    {
        try
        {
            return JSON.writeValueAsString(tree);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @SuppressWarnings("unchecked")
    static void set(final Map<String, Object> root, final String path, final Object value)
    {
        final String[] segments = path.split("\\.");
        Object current = root;
        for (int s = 0; s < segments.length; s++)
        {
            final String segment = segments[s];
            final int bracket = segment.indexOf('[');
            final String key = bracket < 0 ? segment : segment.substring(0, bracket);
            final boolean last = s == segments.length - 1;
            final Map<String, Object> map = (Map<String, Object>)current;
            if (bracket < 0)
            {
                if (last)
                {
                    if (value == REMOVE)
                    {
                        map.remove(key);
                    }
                    else
                    {
                        map.put(key, value);
                    }
                    return;
                }
                current = map.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>());
            }
            else
            {
                final int index = Integer.parseInt(segment.substring(bracket + 1, segment.length() - 1));
                final List<Object> list = (List<Object>)map.computeIfAbsent(key, k -> new ArrayList<>());
                while (list.size() <= index)
                {
                    list.add(new LinkedHashMap<String, Object>());
                }
                if (last)
                {
                    if (value == REMOVE)
                    {
                        list.remove(index);
                    }
                    else
                    {
                        list.set(index, value);
                    }
                    return;
                }
                current = list.get(index);
            }
        }
    }

    /**
     * A valid sketch entry placed after the example's regions.
     */
    static Map<String, Object> sketch(final String type, final int rows, final int columns, final long length)
    {
        final Map<String, Object> sketch = new LinkedHashMap<>();
        sketch.put("id", 7);
        sketch.put("type", type);
        if (rows > 0)
        {
            sketch.put("rows", rows);
        }
        sketch.put("columns", columns);
        sketch.put("localQpn", "0x600");
        sketch.put("qpn", "0x601");
        sketch.put("rkey", "0x99");
        sketch.put("address", "0x7f0000800000");
        sketch.put("length", length);
        return sketch;
    }
}
