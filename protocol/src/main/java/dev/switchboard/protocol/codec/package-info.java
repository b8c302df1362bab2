/**
 * The A2A JSON of each wire version, read into and written from {@code protocol.model}: {@link WireCodec} with
 * {@link V10Codec} (ProtoJSON) and {@link V03Codec}, both on {@link ModelCodec}'s shared layout; agent cards in any
 * shape ({@link CardCodec}), push configs, security schemes, enum spellings and timestamps. Readers are lenient, and
 * a value that is not valid A2A is an {@link A2aFormatException} naming the field.
 */
package dev.switchboard.protocol.codec;
