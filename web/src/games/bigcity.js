// placeholder until the Big City wire types land
export {};
