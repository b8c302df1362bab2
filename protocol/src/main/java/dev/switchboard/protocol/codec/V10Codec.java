package dev.switchboard.protocol.codec;

/** A2A 1.0 ProtoJSON. (API skeleton: bodies are filled in by the codec work.) */
abstract class V10Codec implements WireCodec {
    static final WireCodec INSTANCE = null;
}
