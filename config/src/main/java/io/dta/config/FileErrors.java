package io.dta.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Says what went wrong with a file in words an operator reads: the message of a {@link FileSystemException} is often
 * only the path (a {@link NoSuchFileException} under {@code /proc}, say), so "cannot create X: X" told nothing, and
 * the operating system's reason comes capitalised ("Not a directory") for the middle of a sentence. Every module that
 * reports a file error (the configuration loader, the collector's store, the commands) words it here, so one failure
 * reads alike whichever command meets it: {@code cannot <do what> FILE: reason}.
 */
public final class FileErrors
{
    /** The reason for a file that does not exist. */
    public static final String NO_SUCH_FILE = "no such file or directory";

    /** The reason for a file that this process may not read or write. */
    public static final String PERMISSION_DENIED = "permission denied";

    /** The reason for a directory where a file was expected. */
    public static final String IS_A_DIRECTORY = "is a directory";

    private FileErrors()
    {
    }

    /**
     * @param ex why a file could not be created, read or locked.
     * @return the file concerned (when the exception names one) and the reason in words, or the message in words.
     */
    public static String reason(final IOException ex)
    {
        if (ex instanceof final FileSystemException f)
        {
            return (null == f.getFile() ? "" : f.getFile() + ": ") + kind(f);
        }
        return message(ex);
    }

    /**
     * The reason alone for a message that names the file already: "cannot write FILE: no such file or directory",
     * not "cannot write FILE: java.nio.file.NoSuchFileException: FILE" nor "FILE: FILE: ...".
     *
     * @param file the file the message names.
     * @param ex   why it could not be created, read, written or closed.
     * @return the reason in words (the other file too when the exception is about another one).
     */
    public static String reason(final Path file, final IOException ex)
    {
        if (ex instanceof final FileSystemException f && null != file && file.toString().equals(f.getFile()) &&
            null == f.getOtherFile())
        {
            return kind(f);
        }
        return reason(ex);
    }

    /**
     * @param file the file that could not be written (null: "the output").
     * @param ex   why.
     * @return {@code cannot write FILE: reason}, in words.
     */
    public static String cannotWrite(final Path file, final IOException ex)
    {
        return "cannot write " + (null == file ? "the output" : file) + ": " + reason(file, ex);
    }

    /**
     * @param file the file that could not be read.
     * @param ex   why.
     * @return {@code cannot read FILE: reason}, in words.
     */
    public static String cannotRead(final Path file, final IOException ex)
    {
        return "cannot read " + file + ": " + reason(file, ex);
    }

    /**
     * Why a file given as input cannot be read, checked before a command starts work on it (so that it refuses in the
     * same words an exception while reading would give).
     *
     * @param file the input.
     * @return null when it can be read (a regular file, or a device or pipe), else the reason in words.
     */
    public static String unreadable(final Path file)
    {
        if (Files.isDirectory(file))
        {
            return IS_A_DIRECTORY;
        }
        if (!Files.exists(file))
        {
            return NO_SUCH_FILE;
        }
        return Files.isReadable(file) ? null : PERMISSION_DENIED;
    }

    private static String kind(final FileSystemException f)
    {
        if (null != f.getReason())
        {
            return words(f.getReason());
        }
        return switch (f)
        {
            case final NoSuchFileException ignored -> NO_SUCH_FILE;
            case final AccessDeniedException ignored -> PERMISSION_DENIED;
            // Creating a file or its directories: the path named exists, and not as the directory needed.
            case final FileAlreadyExistsException ignored -> "exists and is not a directory";
            case final NotDirectoryException ignored -> "not a directory";
            default -> f.getClass().getSimpleName();
        };
    }

    private static String message(final IOException ex)
    {
        if (ex instanceof CharacterCodingException)
        {
            // Its message is "Input length = 1": the file is not text in the encoding read.
            return "not UTF-8 text";
        }
        return null == ex.getMessage() ? ex.getClass().getSimpleName() : words(ex.getMessage());
    }

    // The operating system's "No space left on device" reads as the middle of a sentence after "cannot write F: ".
    private static String words(final String reason)
    {
        return reason.length() > 1 && Character.isUpperCase(reason.charAt(0)) &&
            Character.isLowerCase(reason.charAt(1)) ? Character.toLowerCase(reason.charAt(0)) + reason.substring(1) :
            reason;
    }
}
