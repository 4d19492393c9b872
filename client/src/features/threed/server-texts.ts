import { msg } from '@lingui/core/macro';
import {
  FILE_ONLY_SERVER,
  MODEL_FILE_TEXTS,
  SCENE_TEXTS,
  THREED_TEXTS,
} from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The 3D area's texts that come from the server, the worker or the shared schemas (spec 001 §8,
 * DESIGN.md §13's limits): added to the translation table when this area's chunk loads, not
 * carried by every first visit.
 */
addServerTexts([
  [MODEL_FILE_TEXTS.tooLarge, msg`The 3D model is too large: its files may have up to 500 MB.`],
  [
    MODEL_FILE_TEXTS.wrongType,
    msg`This file cannot be part of a 3D model: FBX, glTF with its bin and images, GLB, STEP and ZIP files can.`,
  ],
  [FILE_ONLY_SERVER, msg`Only the server makes the levels of a 3D model.`],
  // 3D models (issue 32, spec 001 §8).
  [
    THREED_TEXTS.loadFailed,
    msg`Loading the model failed (check the format; multi-file models need the folder upload)`,
  ],
  [THREED_TEXTS.stepPreview, msg`Preview not available for STEP files`],
  [THREED_TEXTS.zipPath, msg`The ZIP archive holds a path that leaves its folder.`],
  [THREED_TEXTS.zipTooLarge, msg`The ZIP archive unpacks to more than 512 MB.`],
  [THREED_TEXTS.zipTooManyEntries, msg`The ZIP archive holds more than 2,000 files.`],
  [THREED_TEXTS.zipBroken, msg`The ZIP archive cannot be read.`],
  [THREED_TEXTS.tooManyTriangles, msg`The model has more than 5 million triangles.`],
  [THREED_TEXTS.tooSlow, msg`Processing the model took longer than 10 minutes.`],
  [THREED_TEXTS.tooMuchMemory, msg`Processing the model needed more memory than it may use.`],
  [THREED_TEXTS.sourceMissing, msg`A file of the model is missing: upload the model again.`],
  [THREED_TEXTS.sourcesOfAsset, msg`The files of a 3D model must be 3D model files of its asset.`],
  [THREED_TEXTS.samePath, msg`Two files of the model have the same path.`],
  [THREED_TEXTS.badPath, msg`A file path of the model is not valid.`],
  [THREED_TEXTS.oneOwner, msg`It belongs to an asset or to a template: name one of them.`],
  [THREED_TEXTS.copyMissing, msg`The 3D model to copy does not exist.`],
  [THREED_TEXTS.copyNotReady, msg`The 3D model to copy is not processed yet.`],
  // Scenes and hotspots (spec 001 §8).
  [SCENE_TEXTS.offModel, msg`A hotspot must lie on a model.`],
  [SCENE_TEXTS.unknownIcon, msg`An icon must be part of the icon font.`],
  [SCENE_TEXTS.modelsOfAsset, msg`A scene shows 3D models of its own asset.`],
  [SCENE_TEXTS.modelTwice, msg`A 3D model is placed once in a scene.`],
  [SCENE_TEXTS.modelNotInScene, msg`The hotspot’s 3D model is not placed in this scene.`],
  [SCENE_TEXTS.modelNotReady, msg`The 3D model is not processed yet.`],
  [SCENE_TEXTS.tooManyModels, msg`A scene may place at most 50 models.`],
  [SCENE_TEXTS.tooManyMetadata, msg`A hotspot may carry at most 20 entries.`],
  [SCENE_TEXTS.metadataOfAsset, msg`A hotspot shows data streams and files of its own asset.`],
  [SCENE_TEXTS.placed, msg`Point on the model chosen: name the hotspot.`],
  [SCENE_TEXTS.renderFailed, msg`The rendering could not be made; try again later.`],
  [SCENE_TEXTS.noBrowser, msg`Renderings need Chromium on the server.`],
  [SCENE_TEXTS.linkMissing, msg`The linked item does not exist.`],
  [
    SCENE_TEXTS.tooManyRenderings,
    msg`This scene has 5 renderings under way: wait until one is done.`,
  ],
  [SCENE_TEXTS.sceneOfOtherAsset, msg`The scene belongs to another asset.`],
  [
    SCENE_TEXTS.metadataOfTemplate,
    msg`A template’s hotspot shows data streams of its template, and no files.`,
  ],
  [
    SCENE_TEXTS.renderingOfTemplate,
    msg`Renderings are made of an asset’s scenes, not of a template’s.`,
  ],
  [
    SCENE_TEXTS.tooLargeToRender,
    msg`The scene is too large to render: its models have more than 500 MB.`,
  ],
]);
