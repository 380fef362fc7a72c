/**
 * Protobuf encoding of API objects (spec 000 § Protobuf envelope, § Content negotiation and
 * encoding; media type PROTOBUF_MEDIA_TYPE): messages derived from the kind definitions, the
 * envelope, Status errors and watch frames. The public surface of this folder.
 */
export { type DecodedProtobuf, decodeProtobuf, encodeProtobuf, type EnvelopeFraming, envelopeFraming, PROTOBUF_MAGIC, type ProtobufKind, type ProtobufResolver } from './envelope.js';
export { ProtobufError, type ProtobufErrorCode } from './errors.js';
export { isMessageList, type Pause, protobufListChunks } from './list-chunks.js';
export { decodeMessage } from './reader.js';
export { encodeMessage } from './writer.js';
export { STATUS_KIND, statusSchema } from './status.js';
export { unsetDefaultedEmptyStrings } from './unset-defaults.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  type DecodedWatchEvent,
  decodeWatchEvent,
  encodeWatchEvent,
  encodeWatchFrame,
  WatchFrameReader,
  type WatchEventType,
} from './watch.js';
