package keygen

// slugWords are the words slugs are made of: short, lower-case ASCII, safe in
// keys and URLs.
var slugWords = []string{
	"amber", "anchor", "apple", "arrow", "aspen", "atlas", "autumn", "badge", "bamboo", "basil",
	"beacon", "birch", "bison", "blaze", "bloom", "breeze", "brick", "brook", "cactus", "candle",
	"canyon", "cedar", "cherry", "cinder", "clover", "cobalt", "comet", "copper", "coral", "cotton",
	"crane", "crystal", "dawn", "delta", "desert", "dune", "eagle", "echo", "ember", "falcon",
	"fern", "field", "flint", "forest", "fox", "frost", "garden", "glacier", "granite", "harbor",
	"hazel", "heron", "hollow", "honey", "iris", "island", "ivory", "jade", "jasper", "juniper",
	"kettle", "lagoon", "lake", "lantern", "lark", "laurel", "lemon", "lily", "linen", "lotus",
	"maple", "marble", "meadow", "mesa", "mint", "moss", "nectar", "north", "oak", "ocean",
	"olive", "onyx", "orchid", "otter", "pebble", "pepper", "pine", "planet", "plum", "prairie",
	"quartz", "quill", "rain", "raven", "reef", "ridge", "river", "robin", "saffron", "sage",
	"sand", "shadow", "silver", "sky", "slate", "snow", "spruce", "star", "stone", "storm",
	"summit", "sun", "thistle", "thunder", "tide", "timber", "topaz", "tulip", "valley", "velvet",
	"violet", "willow", "wind", "winter", "wren", "yarrow", "zephyr", "zinc",
}
