package report

// Shard is what the run of one shard (agentcheck eval --shard K/N) carries
// so that agentcheck merge can put the shards back together as the run of
// the whole input, and refuse shards that do not belong together.
type Shard struct {
	// K and N say the run is shard K of N (K from 1).
	K int `json:"k"`
	N int `json:"n"`
	// Records counts the records of the whole input, every shard's; Input
	// is a digest of the whole input (the names and bytes read).
	Records int    `json:"records"`
	Input   string `json:"input"`
	// Options are the options that decide the cases' scores, "name=value"
	// each: the shards of one run share them.
	Options []string `json:"options"`
	// Ordinals are the positions in the whole input (from 0) of the run's
	// cases, in the order of Cases.
	Ordinals []int `json:"ordinals"`
	// Partial is set when the run stopped before the end of its input
	// (interrupted, or its output failed): Records and Input are then of
	// the part read, and merge refuses the run.
	Partial bool `json:"partial,omitempty"`
}
