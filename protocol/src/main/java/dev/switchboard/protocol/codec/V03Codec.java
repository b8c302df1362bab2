package dev.switchboard.protocol.codec;

/** A2A 0.3 JSON with kind tags. (API skeleton: bodies are filled in by the codec work.) */
abstract class V03Codec implements WireCodec {
    static final WireCodec INSTANCE = null;
}
