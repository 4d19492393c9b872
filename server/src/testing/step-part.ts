/*
 * Small STEP parts written as text (ISO 10303-21, AP214), for the 3D tests and the demo's seed: a
 * cylinder, as a CAD program exports one (a B-rep solid: two planar discs and a cylindrical side
 * closed by a seam edge), in millimetres.
 */

/** A STEP file of a solid cylinder of this radius and height (mm), standing on the XY plane. */
export function cylinderStep(radius: number, height: number, name = 'Part'): string {
  const lines: string[] = [];
  const add = (entity: string): string => {
    lines.push(`#${lines.length + 1}=${entity};`);
    return `#${lines.length}`;
  };
  const num = (x: number) => (Number.isInteger(x) ? `${x}.` : String(x));
  const point = (p: readonly number[]) => add(`CARTESIAN_POINT('',(${p.map(num).join(',')}))`);
  const direction = (d: readonly number[]) => add(`DIRECTION('',(${d.map(num).join(',')}))`);
  const placement = (at: readonly number[], axis: readonly number[], ref: readonly number[]) =>
    add(`AXIS2_PLACEMENT_3D('',${point(at)},${direction(axis)},${direction(ref)})`);

  // The seam's two ends, where both circles start.
  const bottomVertex = add(`VERTEX_POINT('',${point([radius, 0, 0])})`);
  const topVertex = add(`VERTEX_POINT('',${point([radius, 0, height])})`);
  const bottomCircle = add(
    `CIRCLE('',${placement([0, 0, 0], [0, 0, 1], [1, 0, 0])},${num(radius)})`,
  );
  const topCircle = add(
    `CIRCLE('',${placement([0, 0, height], [0, 0, 1], [1, 0, 0])},${num(radius)})`,
  );
  const bottomEdge = add(`EDGE_CURVE('',${bottomVertex},${bottomVertex},${bottomCircle},.T.)`);
  const topEdge = add(`EDGE_CURVE('',${topVertex},${topVertex},${topCircle},.T.)`);
  const seamLine = add(
    `LINE('',${point([radius, 0, 0])},${add(`VECTOR('',${direction([0, 0, 1])},${num(height)})`)})`,
  );
  const seam = add(`EDGE_CURVE('',${bottomVertex},${topVertex},${seamLine},.T.)`);
  const oriented = (edge: string, same: boolean) =>
    add(`ORIENTED_EDGE('',*,*,${edge},${same ? '.T.' : '.F.'})`);

  // Bottom disc (normal down: its circle runs clockwise seen from below), top disc (up).
  const bottomFace = add(
    `ADVANCED_FACE('',(${add(`FACE_BOUND('',${add(`EDGE_LOOP('',(${oriented(bottomEdge, false)}))`)},.T.)`)}),${add(`PLANE('',${placement([0, 0, 0], [0, 0, -1], [1, 0, 0])})`)},.T.)`,
  );
  const topFace = add(
    `ADVANCED_FACE('',(${add(`FACE_BOUND('',${add(`EDGE_LOOP('',(${oriented(topEdge, true)}))`)},.T.)`)}),${add(`PLANE('',${placement([0, 0, height], [0, 0, 1], [1, 0, 0])})`)},.T.)`,
  );
  // The side: bottom circle forward, up the seam, top circle backward, down the seam.
  const sideLoop = add(
    `EDGE_LOOP('',(${oriented(bottomEdge, true)},${oriented(seam, true)},${oriented(topEdge, false)},${oriented(seam, false)}))`,
  );
  const sideFace = add(
    `ADVANCED_FACE('',(${add(`FACE_BOUND('',${sideLoop},.T.)`)}),${add(`CYLINDRICAL_SURFACE('',${placement([0, 0, 0], [0, 0, 1], [1, 0, 0])},${num(radius)})`)},.T.)`,
  );
  const solid = add(
    `MANIFOLD_SOLID_BREP('${name}',${add(`CLOSED_SHELL('',(${bottomFace},${topFace},${sideFace}))`)})`,
  );

  const length = add('( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) )');
  const angle = add('( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) )');
  const solidAngle = add('( NAMED_UNIT(*) SI_UNIT($,.STERADIAN.) SOLID_ANGLE_UNIT() )');
  const uncertainty = add(
    `UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-07),${length},'distance_accuracy_value','')`,
  );
  const context = add(
    `( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((${uncertainty})) GLOBAL_UNIT_ASSIGNED_CONTEXT((${length},${angle},${solidAngle})) REPRESENTATION_CONTEXT('',''))`,
  );
  const shape = add(
    `ADVANCED_BREP_SHAPE_REPRESENTATION('',(${placement([0, 0, 0], [0, 0, 1], [1, 0, 0])},${solid}),${context})`,
  );
  const application = add(`APPLICATION_CONTEXT('automotive design')`);
  const product = add(
    `PRODUCT('${name}','${name}','',(${add(`PRODUCT_CONTEXT('',${application},'mechanical')`)}))`,
  );
  const definition = add(
    `PRODUCT_DEFINITION('design','',${add(`PRODUCT_DEFINITION_FORMATION('','',${product})`)},${add(`PRODUCT_DEFINITION_CONTEXT('part definition',${application},'design')`)})`,
  );
  add(
    `SHAPE_DEFINITION_REPRESENTATION(${add(`PRODUCT_DEFINITION_SHAPE('','',${definition})`)},${shape})`,
  );

  return [
    'ISO-10303-21;',
    'HEADER;',
    `FILE_DESCRIPTION(('${name}'),'2;1');`,
    `FILE_NAME('${name}.step','2026-11-29T00:00:00',(''),(''),'','','');`,
    "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));",
    'ENDSEC;',
    'DATA;',
    ...lines,
    'ENDSEC;',
    'END-ISO-10303-21;',
    '',
  ].join('\n');
}
