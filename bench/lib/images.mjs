// Images for the image benches: a JPEG made distinct by a comment segment (other bytes, so another sha256
// and another file and decode; the same picture), so a bench of many images needs only a few drawn ones.

/** The JPEG with a comment segment (FFFE) after its start marker. */
export function uniqueJpeg(jpeg, text) {
  const comment = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4 + comment.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(comment.length + 2, 2);
  comment.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}
