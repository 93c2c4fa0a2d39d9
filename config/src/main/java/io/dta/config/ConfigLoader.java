package io.dta.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads a translator configuration from YAML or JSON and validates all of it before anything starts. Every
 * problem is reported with its key path and reason, all together, in one {@link ConfigException}.
 *
 * <p>Mapping is done by hand rather than by annotation binding so that each error names the exact key
 * ({@code collectors[0].lists[1].qpn}), unknown keys are refused, and numbers follow one set of rules whatever
 * the YAML resolver thought of them.
 */
public final class ConfigLoader
{
    private static final JsonFactory JSON_FACTORY = JsonFactory.builder().build();
    // YAML reads "key:" with no value as null, like "key: ~", but Jackson's YAMLFactory builder leaves its
    // EMPTY_STRING_AS_NULL feature off and would report the empty string: a section whose keys were all commented
    // out was then refused as `reports: expected a mapping, got ""`. A quoted "" stays a string.
    private static final YAMLFactory YAML_FACTORY = YAMLFactory.builder()
        .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
        .build();

    private ConfigLoader()
    {
    }

    /**
     * Load a file; the format follows the extension ({@code .yaml}, {@code .yml}, {@code .json}), or is sniffed. A
     * file over 1 MiB is refused unread, one that is not UTF-8 naming the line and byte offset of the first bad byte.
     *
     * @param path the file.
     * @return the validated configuration.
     * @throws ConfigException listing every problem, or if the file cannot be read, is too large or is not UTF-8.
     */
    public static ApplianceConfig load(final Path path)
    {
        final String content;
        try
        {
            content = ConfigFileText.read(path);
        }
        catch (final IOException ex)
        {
            // In FileErrors' words, as every command words a file it cannot read: "no such file or directory", not
            // "java.nio.file.NoSuchFileException: /etc/dta.yaml".
            throw new ConfigException(path + ": cannot read: " + FileErrors.reason(path, ex), ex);
        }
        final Path fileName = path.getFileName();
        final ConfigFormat byName = null == fileName ? null : ConfigFormat.forFileName(fileName.toString());
        return load(content, null == byName ? ConfigFormat.sniff(content) : byName);
    }

    /**
     * Load a document whose format is sniffed from its content.
     *
     * @param content the document.
     * @return the validated configuration.
     * @throws ConfigException listing every problem.
     */
    public static ApplianceConfig load(final String content)
    {
        return load(content, ConfigFormat.sniff(content));
    }

    /**
     * Load a document in a given format.
     *
     * @param content the document.
     * @param format  its syntax.
     * @return the validated configuration.
     * @throws ConfigException listing every problem.
     */
    public static ApplianceConfig load(final String content, final ConfigFormat format)
    {
        final List<String> problems = new ArrayList<>();
        // A byte order mark (Windows editors write one) is not part of the document; the YAML reader skips it but
        // the JSON reader, given a String, refused it as an unexpected character.
        final String document = content.startsWith("\uFEFF") ? content.substring(1) : content;
        final ConfigNode root = parse(document, format, problems);
        if (!problems.isEmpty())
        {
            throw new ConfigException(problems);
        }
        return new ConfigMapper().map(root);
    }

    static ConfigNode parse(final String content, final ConfigFormat format, final List<String> problems)
    {
        final JsonFactory factory = format == ConfigFormat.JSON ? JSON_FACTORY : YAML_FACTORY;
        try (JsonParser parser = factory.createParser(content))
        {
            final JsonToken first = parser.nextToken();
            if (null == first)
            {
                problems.add("(document): empty configuration");
                return null;
            }
            final ConfigNode root = read(parser, "", problems);
            if (null != parser.nextToken())
            {
                problems.add("(document): more than one document; expected exactly one");
            }
            return root;
        }
        catch (final JsonProcessingException ex)
        {
            problems.add("(document): not valid " + format + syntaxError(ex));
            return null;
        }
        catch (final IOException ex)
        {
            problems.add("(document): cannot parse: " + ex);
            return null;
        }
    }

    private static ConfigNode read(final JsonParser parser, final String path, final List<String> problems)
        throws IOException
    {
        final JsonToken token = parser.currentToken();
        switch (token)
        {
            case START_OBJECT ->
            {
                final Map<String, ConfigNode> entries = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME)
                {
                    final String key = parser.currentName();
                    parser.nextToken();
                    final String childPath = path.isEmpty() ? ShortText.of(key) : path + "." + ShortText.of(key);
                    final ConfigNode value = read(parser, childPath, problems);
                    if (entries.containsKey(key))
                    {
                        problems.add(childPath + ": duplicate key");
                    }
                    else
                    {
                        entries.put(key, value);
                    }
                }
                return new ConfigNode.MapNode(entries);
            }
            case START_ARRAY ->
            {
                final List<ConfigNode> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY)
                {
                    items.add(read(parser, path + "[" + items.size() + "]", problems));
                }
                return new ConfigNode.ListNode(items);
            }
            case VALUE_STRING ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.STRING, parser.getText());
            }
            case VALUE_NUMBER_INT ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.INTEGER, parser.getText());
            }
            case VALUE_NUMBER_FLOAT ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.FLOAT, parser.getText());
            }
            case VALUE_TRUE, VALUE_FALSE ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.BOOLEAN, parser.getText());
            }
            case VALUE_NULL ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.NULL, "null");
            }
            default ->
            {
                return new ConfigNode.ScalarNode(ConfigNode.Kind.OTHER, String.valueOf(parser.getText()));
            }
        }
    }

    /**
     * One line for a syntax error: SnakeYAML's message spans several lines with source snippets and carets, so its
     * parts are put together: where the parser found the problem, what it is, and what it was parsing from where.
     */
    private static String syntaxError(final JsonProcessingException ex)
    {
        for (Throwable t = ex; null != t; t = t.getCause())
        {
            if (t instanceof final MarkedYAMLException yaml && null != yaml.getProblemMark())
            {
                final Mark problem = yaml.getProblemMark();
                final Mark context = yaml.getContextMark();
                return " at line " + (problem.getLine() + 1) + ", column " + (problem.getColumn() + 1) + ": " +
                    oneLine(yaml.getProblem()) + (null == yaml.getContext() ? "" : " (" + oneLine(yaml.getContext()) +
                    (null == context ? "" : " started at line " + (context.getLine() + 1) + ", column " +
                    (context.getColumn() + 1)) + ")");
            }
        }
        final JsonLocation location = ex.getLocation();
        final String where = null == location ? "" :
            " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        return where + ": " + oneLine(ex.getOriginalMessage());
    }

    private static String oneLine(final String text)
    {
        return null == text ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
