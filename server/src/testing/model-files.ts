import { crc32, deflateRawSync } from 'node:zlib';
import { Document, NodeIO } from '@gltf-transform/core';
import { zipSync } from 'fflate';

/*
 * 3D model files made in the tests (issue 32): a sphere as GLB, as a glTF folder with a separate
 * bin, packed in a ZIP, and ZIP archives that must be refused (a path leaving its folder, a bomb).
 */

/** The sphere's vertices (x, y, z in metres) and its triangles (three indices each). */
function sphereMesh(segments: number, radius: number): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= segments; i++) {
    for (let j = 0; j <= segments; j++) {
      const theta = (Math.PI * i) / segments;
      const phi = (2 * Math.PI * j) / segments;
      positions.push(
        radius * Math.sin(theta) * Math.cos(phi),
        radius * Math.cos(theta),
        radius * Math.sin(theta) * Math.sin(phi),
      );
    }
  }
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * (segments + 1) + j;
      const b = a + segments + 1;
      indices.push(a, b, a + 1, b, b + 1, a + 1);
    }
  }
  return { positions, indices };
}

/** A sphere of `segments` × `segments` quads (2 × segments² triangles) as a glTF document. */
export function sphereDocument(segments: number, radius = 0.5): Document {
  const { positions, indices } = sphereMesh(segments, radius);
  const doc = new Document();
  const buffer = doc.createBuffer('model');
  const primitive = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer),
    )
    .setIndices(
      doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(indices)).setBuffer(buffer),
    )
    .setMaterial(doc.createMaterial('Steel').setBaseColorFactor([0.2, 0.4, 0.8, 1]));
  doc
    .createScene('Scene')
    .addChild(doc.createNode('Sphere').setMesh(doc.createMesh('Sphere').addPrimitive(primitive)));
  return doc;
}

/** The sphere as one GLB file. */
export async function sphereGlb(segments: number): Promise<Uint8Array> {
  return new NodeIO().writeBinary(sphereDocument(segments));
}

/** The sphere as a glTF folder: its JSON naming a separate bin, as exporters write one. */
export async function sphereGltfFolder(
  segments: number,
  name = 'machine',
): Promise<Record<string, Uint8Array>> {
  const doc = sphereDocument(segments);
  doc.getRoot().listBuffers()[0]?.setURI(`${name}.bin`);
  const { json, resources } = await new NodeIO().writeJSON(doc);
  const files: Record<string, Uint8Array> = {
    [`${name}.gltf`]: new TextEncoder().encode(JSON.stringify(json)),
  };
  for (const [uri, bytes] of Object.entries(resources)) files[uri] = bytes;
  return files;
}

/** A ZIP of these entries (deflated). */
export function zipOf(entries: Record<string, Uint8Array>): Uint8Array {
  return zipSync(entries, { level: 6 });
}

/**
 * A ZIP that unpacks to `entries` × `entryBytes` zero bytes while it is small itself: one deflated
 * block of zeros stored under many names (a bomb), written here byte by byte as PKZIP's APPNOTE
 * lays it out, since no packer writes 1 GB of zeros quickly.
 */
export function zipBomb(
  entries: number,
  entryBytes: number,
  /** The size each entry's headers claim (a bomb may lie to pass a check of its headers). */
  declaredBytes = entryBytes,
): Uint8Array {
  const zeros = Buffer.alloc(entryBytes);
  const data = deflateRawSync(zeros, { level: 9 });
  const crc = crc32(zeros);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    const name = Buffer.from(`part-${i}.bin`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declaredBytes, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(declaredBytes, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * The sphere as an ASCII FBX 7.4 file (as exporters write one: a `Geometry` with its vertices and
 * triangles, a `Model` and a `Material` with its colour, joined by `Connections`).
 */
export function sphereFbx(segments: number, radius = 0.5): string {
  const { positions, indices } = sphereMesh(segments, radius);
  // A polygon's last index is written as its bitwise complement: -(i + 1).
  const polygons = indices.map((index, i) => (i % 3 === 2 ? -(index + 1) : index));
  const numbers = (values: readonly number[]) =>
    values.map((v) => (Number.isInteger(v) ? String(v) : v.toFixed(6))).join(',');
  return [
    '; FBX 7.4.0 project file',
    'FBXHeaderExtension:  {',
    '\tFBXHeaderVersion: 1003',
    '\tFBXVersion: 7400',
    '}',
    'GlobalSettings:  {',
    '\tVersion: 1000',
    '\tProperties70:  {',
    '\t\tP: "UpAxis", "int", "Integer", "",1',
    '\t\tP: "UnitScaleFactor", "double", "Number", "",100',
    '\t}',
    '}',
    'Objects:  {',
    '\tGeometry: 1001, "Geometry::Sphere", "Mesh" {',
    `\t\tVertices: *${positions.length} {`,
    `\t\t\ta: ${numbers(positions)}`,
    '\t\t}',
    `\t\tPolygonVertexIndex: *${polygons.length} {`,
    `\t\t\ta: ${numbers(polygons)}`,
    '\t\t}',
    '\t\tGeometryVersion: 124',
    '\t}',
    '\tModel: 1002, "Model::Sphere", "Mesh" {',
    '\t\tVersion: 232',
    '\t\tProperties70:  {',
    '\t\t}',
    '\t}',
    '\tMaterial: 1003, "Material::Steel", "" {',
    '\t\tVersion: 102',
    '\t\tShadingModel: "phong"',
    '\t\tProperties70:  {',
    '\t\t\tP: "DiffuseColor", "Color", "", "A",0.2,0.4,0.8',
    '\t\t}',
    '\t}',
    '}',
    'Connections:  {',
    '\tC: "OO",1001,1002',
    '\tC: "OO",1003,1002',
    '\tC: "OO",1002,0',
    '}',
    '',
  ].join('\n');
}
