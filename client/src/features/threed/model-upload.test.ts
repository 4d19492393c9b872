import { describe, expect, it } from 'vitest';
import { MODEL_FILE_TEXTS, THREED_TEXTS } from '@plant/shared-schema';
import { modelUpload, type Picked } from './model-upload';

/* What a user picks for a 3D model, as the upload sends it (issue 32 item 1). */
const file = (name: string, size = 1000, path = '', type = ''): Picked => ({
  name,
  size,
  type,
  webkitRelativePath: path,
});

describe('a picked 3D model', () => {
  it('takes a lone model file by its name', () => {
    expect(modelUpload([file('Pump housing.glb')])).toMatchObject({
      name: 'Pump housing',
      files: [{ path: 'Pump housing.glb' }],
      step: false,
    });
    expect(modelUpload([file('flange.STP')])).toMatchObject({ name: 'flange', step: true });
  });

  it('keeps a folder’s files at their places below it, leaving out what is no model file', () => {
    const picked = [
      file('press.gltf', 500, 'Press/press.gltf', 'model/gltf+json'),
      file('press.bin', 9000, 'Press/press.bin'),
      file('steel.png', 300, 'Press/textures/steel.png', 'image/png'),
      file('notes.txt', 10, 'Press/notes.txt', 'text/plain'),
    ];
    const upload = modelUpload(picked);
    if ('problem' in upload) throw new Error(upload.problem);
    expect(upload.name).toBe('Press');
    expect(upload.files.map((f) => f.path)).toEqual([
      'press.gltf',
      'press.bin',
      'textures/steel.png',
    ]);
  });

  it('says what is wrong before a byte is sent', () => {
    expect(modelUpload([])).toEqual({ problem: 'Please upload a file' });
    expect(modelUpload([file('manual.pdf', 10, '', 'application/pdf')])).toEqual({
      problem: MODEL_FILE_TEXTS.wrongType,
    });
    expect(modelUpload([file('huge.glb', 600 * 1024 * 1024)])).toEqual({
      problem: MODEL_FILE_TEXTS.tooLarge,
    });
    expect(modelUpload([file('a.bin', 10, 'Folder/a.bin')])).toEqual({
      problem: THREED_TEXTS.loadFailed,
    });
  });
});
